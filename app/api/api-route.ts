import { requireRole } from "@/lib/auth/server/require-role";
import { createApiRoute } from "./route-handler";

/** Every API route but the public readiness probe is built with this: the session check is not optional. */
export const apiRoute = createApiRoute(requireRole);
