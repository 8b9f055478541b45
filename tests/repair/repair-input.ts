/** TEST ONLY. A defect's scenario as the pure repair core takes it (the sample's checks, one of them broken). */
import type { CheckRepairInput } from "@/lib/repair/repair-checks";
import { type CheckDefect, defectSubject } from "./defect-corpus";

export function repairInputFor(defect: CheckDefect, code = defect.broken): CheckRepairInput {
  const { sample, scenario } = defectSubject(defect);
  return {
    source: sample.source,
    className: sample.meta.env_class_name,
    initialState: scenario.init_config,
    task: scenario.task,
    gold: { source: "scenario", calls: scenario.gold_calls },
    checks: scenario.checklist_with_func.map((c, position) => ({
      position,
      item: c.check_item,
      code: position === defect.position ? code : c.check_func,
      validatorId: `validator-${position}`,
      validatorVersionId: `version-${position}`,
    })),
  };
}
