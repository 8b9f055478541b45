/**
 * TEST ONLY. Seeded defects in the sample scenarios' checks, each of a distinct kind, with the
 * scripted answers a repair model can give: the right fix, a wrong fix (some wrong fixes still
 * prove, being weaker than the checklist item: the proof cannot catch those, and the benchmark
 * reports it), a trivially-true fix and garbage. The right fix is the sample's own check.
 */
import { loadSamples } from "@/prisma/seed/load-samples";

export type CheckDefect = {
  kind: string;
  slug: "library-lending" | "shop-orders-refunds";
  scenario: number;
  position: number;
  broken: string;
  wrong: string;
};

const fn = (body: string) => `def check_func(final_state):\n${body.replace(/^/gm, "    ")}\n`;

export const CHECK_DEFECTS: CheckDefect[] = [
  {
    kind: "reads the wrong field",
    slug: "library-lending",
    scenario: 0,
    position: 1,
    broken: fn('return final_state.get("copies", {}).get("C004-1", {}).get("state") == "in_repair"'),
    // Weaker than the item (any status but on_loan): proves, but is wrong.
    wrong: fn('return final_state.get("copies", {}).get("C004-1", {}).get("status") != "on_loan"'),
  },
  {
    kind: "wrong comparison",
    slug: "library-lending",
    scenario: 0,
    position: 3,
    broken: fn('return final_state.get("loans", {}).get("L004", {}).get("due_date") != "2025-05-04"'),
    wrong: fn('return final_state.get("loans", {}).get("L004", {}).get("due_date") != "2025-04-20"'),
  },
  {
    kind: "always true",
    slug: "library-lending",
    scenario: 0,
    position: 2,
    broken: fn('fines = final_state.get("members", {}).get("M001", {}).get("fines_due")\nreturn True'),
    wrong: fn(
      'fines = final_state.get("members", {}).get("M001", {}).get("fines_due")\nreturn fines is not None',
    ),
  },
  {
    kind: "crashes on None",
    slug: "library-lending",
    scenario: 0,
    position: 0,
    broken: fn(
      'l = final_state["loans"]["L003"]\nreturn l["returned_date"].startswith("2025-04-15") and l["status"] == "returned"',
    ),
    wrong: fn(
      'l = final_state.get("loans", {}).get("L003", {})\nreturn l.get("returned_date") == "2025-04-16"',
    ),
  },
  {
    kind: "reads the wrong entity",
    slug: "library-lending",
    scenario: 0,
    position: 4,
    broken: fn(
      'before = initial_state.get("loans", {}).get("L003", {}).get("renewals", 0)\nreturn final_state.get("loans", {}).get("L003", {}).get("renewals") == before + 1',
    ),
    wrong: fn(
      'before = initial_state.get("loans", {}).get("L004", {}).get("renewals", 0)\nreturn final_state.get("loans", {}).get("L004", {}).get("renewals") >= before',
    ),
  },
  {
    kind: "reads initial_state instead of final_state",
    slug: "library-lending",
    scenario: 0,
    position: 6,
    broken: fn(
      'for lid, l in initial_state.get("loans", {}).items():\n    if l.get("member_id") == "M001" and l.get("copy_id") == "C005-1" and l.get("status") == "active":\n        return True\nreturn False',
    ),
    wrong: fn(
      'for lid, l in final_state.get("loans", {}).items():\n    if l.get("member_id") == "M001" and l.get("copy_id") == "C005-1" and l.get("status") == "returned":\n        return True\nreturn False',
    ),
  },
  {
    kind: "wrong constant",
    slug: "shop-orders-refunds",
    scenario: 0,
    position: 5,
    broken: fn(
      'value = final_state.get("customers", {}).get("C001", {}).get("store_credit")\nreturn isinstance(value, (int, float)) and abs(value - 1.0) < 1e-6',
    ),
    // Weaker (any balance under the initial 5.00): proves, but is wrong.
    wrong: fn(
      'value = final_state.get("customers", {}).get("C001", {}).get("store_credit")\nreturn isinstance(value, (int, float)) and value < 5.0',
    ),
  },
  {
    kind: "inverted membership",
    slug: "shop-orders-refunds",
    scenario: 0,
    position: 6,
    broken: fn(
      'return "C001" not in (final_state.get("coupons", {}).get("SPRING15", {}).get("used_by") or [])',
    ),
    wrong: fn('return "C003" in (final_state.get("coupons", {}).get("SPRING15", {}).get("used_by") or [])'),
  },
  {
    kind: "off by one",
    slug: "shop-orders-refunds",
    scenario: 0,
    position: 2,
    broken: fn(
      'before = initial_state.get("products", {}).get("PR001", {}).get("stock")\nafter = final_state.get("products", {}).get("PR001", {}).get("stock")\nreturn isinstance(before, int) and after == before + 2',
    ),
    // Weaker (any change): proves, but is wrong.
    wrong: fn(
      'before = initial_state.get("products", {}).get("PR001", {}).get("stock")\nafter = final_state.get("products", {}).get("PR001", {}).get("stock")\nreturn after != before',
    ),
  },
  {
    kind: "wrong type guard",
    slug: "shop-orders-refunds",
    scenario: 0,
    position: 4,
    broken: fn(
      'for oid, o in final_state.get("orders", {}).items():\n    if oid in initial_state.get("orders", {}) or o.get("customer_id") != "C001":\n        continue\n    paid = o.get("amount_paid_credit")\n    if isinstance(paid, str) and abs(float(paid) - 29.5) < 1e-6:\n        return True\nreturn False',
    ),
    wrong: fn(
      'for oid, o in final_state.get("orders", {}).items():\n    paid = o.get("amount_paid_credit")\n    if isinstance(paid, (int, float)) and paid > 100:\n        return True\nreturn False',
    ),
  },
  {
    kind: "wrong nesting path",
    slug: "library-lending",
    scenario: 0,
    position: 5,
    broken: fn(
      'for lid, l in final_state.items():\n    if isinstance(l, dict) and l.get("member_id") == "M001" and l.get("copy_id") == "C001-1" and l.get("status") == "active":\n        return True\nreturn False',
    ),
    // Drops the "new" and the due-date conditions: proves, but is wrong.
    wrong: fn(
      'for lid, l in final_state.get("loans", {}).items():\n    if l.get("copy_id") == "C001-1" and l.get("status") == "active":\n        return True\nreturn False',
    ),
  },
  {
    kind: "case mismatch in a string",
    slug: "shop-orders-refunds",
    scenario: 0,
    position: 1,
    broken: fn(
      'for rid, r in final_state.get("refunds", {}).items():\n    if rid in initial_state.get("refunds", {}):\n        continue\n    if r.get("order_id") == "O1001" and r.get("status") == "Approved" and r.get("method") == "store_credit":\n        return True\nreturn False',
    ),
    wrong: fn(
      'for rid, r in final_state.get("refunds", {}).items():\n    if r.get("order_id") == "O1001" and r.get("method") == "gift_card":\n        return True\nreturn False',
    ),
  },
];

export const TRIVIAL_FIX = fn("return True");
export const GARBAGE = "I looked at the evidence and the check seems fine to me; no change is needed.";

/** The sample's scenario a defect is seeded in, and its own (right) check code. */
export function defectSubject(defect: CheckDefect) {
  const sample = loadSamples().find((s) => s.slug === defect.slug);
  const scenario = sample?.scenarios[defect.scenario];
  const right = scenario?.checklist_with_func[defect.position]?.check_func;
  if (!sample || !scenario || !right) throw new Error(`no sample check for ${defect.kind}`);
  return { sample, scenario, right };
}

export const answerWith = (code: string, diagnosis = "The check was wrong.") =>
  `# Diagnosis\n${diagnosis}\n# Fix\n\`\`\`python\n${code}\`\`\`\n`;
