/**
 * TEST ONLY. A counter whose task needs two changes — add 2, tag "done" — so near-misses have
 * something to skip: a check that looks at only one change accepts the near-miss that skips the
 * other (a weak validator), a checklist that looks at both rejects every near-miss.
 */
export const TWO_CHANGE_COUNTER = `class Counter:
    def __init__(self, init_config=None):
        self.count = 0
        self.tags = []

    def add(self, amount: int) -> dict:
        """Add to the counter."""
        self.count += amount
        return {"success": True, "data": self.count}

    def tag(self, label: str) -> dict:
        """Tag the counter."""
        self.tags.append(label)
        return {"success": True}

    def get_count(self) -> dict:
        """Read the counter."""
        return {"success": True, "data": self.count}
`;

export const TWO_CHANGE_TASK = "Add 2 to the counter and tag it 'done'.";

export const TWO_CHANGE_GOLD = [
  { name: "add", arguments: { amount: 2 } },
  { name: "tag", arguments: { label: "done" } },
];

/** A check function returning `expression`. */
export const checkReturning = (expression: string) =>
  `def check_func(final_state):\n    return ${expression}\n`;
export const COUNT_IS_2 = checkReturning("final_state['count'] == 2");
export const TAGGED_DONE = checkReturning("final_state['tags'] == ['done']");
export const BOTH_CHANGES = checkReturning("final_state['count'] == 2 and final_state['tags'] == ['done']");
