/**
 * TEST ONLY. Seeded defects in a sample environment's tool code, each of a distinct kind, with the
 * probe the quality check would have failed and the sample's own method as the right fix.
 */
import type { EnvironmentRepairInput } from "@/lib/repair/repair-environment";
import { loadSamples } from "@/prisma/seed/load-samples";

const sample = loadSamples().find((s) => s.slug === "library-lending")!;
export const LIBRARY = sample;

/** The sample's `checkout_copy` method, as it is in the source (the right fix). */
export const CHECKOUT_RIGHT = (() => {
  const start = sample.source.indexOf("    def checkout_copy(");
  const end = sample.source.indexOf("    def return_copy(");
  return sample.source.slice(start, end).trimEnd() + "\n";
})();

export type EnvironmentDefect = { kind: string; broken: string; rationale: string };

const withCheckout = (method: string) => sample.source.replace(CHECKOUT_RIGHT.trimEnd(), method.trimEnd());

export const ENVIRONMENT_DEFECTS: EnvironmentDefect[] = [
  {
    kind: "tool forgets to persist a change",
    broken: withCheckout(CHECKOUT_RIGHT.replace("        self.loans[loan_id] = loan\n", "")),
    rationale: "The loan is returned but never stored in self.loans.",
  },
  {
    kind: "tool skips a business rule",
    broken: withCheckout(
      CHECKOUT_RIGHT.replace(
        '        if item["is_reference"]:\n            return {"success": False, "error": "Reference copies cannot leave the library"}\n',
        "",
      ),
    ),
    rationale: "A reference copy was lent although the rules forbid it.",
  },
  {
    kind: "docstring disagrees with the code",
    broken: withCheckout(
      CHECKOUT_RIGHT.replace("Lend a copy to a member for 21 days.", "Lend a copy to a member for 14 days."),
    ),
    rationale: "The docstring promises 14 days but the loan is due in 21.",
  },
];

/** A plausible fix that breaks a sibling scenario: loans due in 14 days instead of 21. */
export const CHECKOUT_BREAKS_SIBLING = CHECKOUT_RIGHT.replace(
  "timedelta(days=LOAN_DAYS)",
  "timedelta(days=14)",
);

/** The environment's scenarios, as sibling proofs take them. */
export const LIBRARY_SIBLINGS = sample.scenarios.map((s) => ({
  name: s.task_id,
  initialState: s.init_config,
  checks: s.checklist_with_func.map((c, position) => ({ position, item: c.check_item, code: c.check_func })),
  gold: { source: "scenario" as const, calls: s.gold_calls },
}));

/** The repair input for a defect of the library sample: its failed checkout probe, its scenarios. */
export const environmentRepairInput = (broken: string, rationale: string): EnvironmentRepairInput => ({
  source: broken,
  className: LIBRARY.meta.env_class_name,
  introduction: LIBRARY.meta.environment_introduction,
  rules: LIBRARY.meta.constraints_rules,
  testState: LIBRARY.scenarios[0]!.init_config,
  probes: [
    {
      toolName: "checkout_copy",
      kind: "positive",
      arguments: { member_id: "M002", copy_id: "C001-1" },
      observation: { success: true },
      stateDiff: null,
      rationale,
    },
  ],
  siblings: LIBRARY_SIBLINGS,
});
