import { notFound } from "next/navigation";
import { isAppError } from "@/lib/core/errors";

/** Page helper: a domain lookup's NOT_FOUND becomes the not-found page; other errors propagate. */
export async function orNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
