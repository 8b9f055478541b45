from typing import Dict, List, Optional, TypedDict, Literal
from datetime import date, datetime, timedelta
import copy


class MemberInfo(TypedDict):
    member_id: str
    name: str
    email: str
    tier: str  # "standard" | "premium"
    status: str  # "active" | "suspended"
    fines_due: float


class BookInfo(TypedDict):
    book_id: str
    title: str
    author: str
    isbn: str
    genre: str
    publication_year: int
    replacement_cost: float


class CopyInfo(TypedDict):
    copy_id: str
    book_id: str
    branch: str
    status: str  # "available" | "on_loan" | "on_hold_shelf" | "in_repair" | "lost"
    is_reference: bool
    reserved_for: Optional[str]  # member_id while the copy waits on the hold shelf


class LoanInfo(TypedDict):
    loan_id: str
    copy_id: str
    member_id: str
    checkout_date: str  # "YYYY-MM-DD"
    due_date: str
    returned_date: Optional[str]
    renewals: int
    status: str  # "active" | "returned" | "lost"


class HoldInfo(TypedDict):
    hold_id: str
    book_id: str
    member_id: str
    placed_date: str
    status: str  # "waiting" | "ready" | "fulfilled" | "cancelled"
    copy_id: Optional[str]  # set when a copy is set aside for the member


def _get(container: dict, key):
    # Tool arguments come from an LLM: a list or dict where an id belongs must fail softly, not raise.
    return container.get(key) if isinstance(key, str) else None


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


LOAN_LIMITS = {"standard": 3, "premium": 6}
LOAN_DAYS = 21
RENEWAL_DAYS = 14
MAX_RENEWALS = 2
LATE_FEE_PER_DAY = 0.25
DAMAGE_FEE = 15.0
FINE_BLOCK_THRESHOLD = 10.0


class LibraryLendingSystem:
    def __init__(self, init_config: dict = None):
        """
        Public library lending desk: members, catalogue titles, physical copies per branch,
        loans and holds (reservations).
        """
        config = copy.deepcopy(init_config or {})

        # Members: member_id -> MemberInfo
        self.members: Dict[str, MemberInfo] = config.get("members", {})
        # Catalogue titles: book_id -> BookInfo
        self.books: Dict[str, BookInfo] = config.get("books", {})
        # Physical copies: copy_id -> CopyInfo
        self.copies: Dict[str, CopyInfo] = config.get("copies", {})
        # Loans: loan_id -> LoanInfo
        self.loans: Dict[str, LoanInfo] = config.get("loans", {})
        # Holds: hold_id -> HoldInfo
        self.holds: Dict[str, HoldInfo] = config.get("holds", {})
        # Today's date at the desk ("YYYY-MM-DD"); due dates and fines are computed from it.
        self.current_date: str = config.get("current_date", "2025-04-15")

        # Constraints:
        # - Active loans per member: standard 3, premium 6.
        # - Suspended members, members owing 10.00 or more, and members with an overdue loan
        #   cannot borrow; suspended or indebted members cannot renew or place holds either.
        # - Reference copies never leave the library.
        # - Loans last 21 days; a renewal adds 14 days to the due date, at most 2 renewals,
        #   never for an overdue loan or while another member waits for the title.
        # - Late returns cost 0.25 per day; damaged returns add 15.00 and send the copy to repair;
        #   a lost copy costs the title's replacement cost.
        # - A copy returned in good condition goes to the hold shelf for the oldest waiting hold;
        #   only that member can borrow it, which fulfils the hold.
        # - Holds only when no copy is available to borrow, one per member and title, never for
        #   a title the member currently has on loan.
        # - Upgrading to premium requires a zero balance.

    # ------------------------------------------------------------------ helpers

    def _today(self) -> date:
        try:
            return datetime.strptime(self.current_date, "%Y-%m-%d").date()
        except (TypeError, ValueError):
            return date(2025, 1, 1)

    def _parse_date(self, value: Optional[str]) -> Optional[date]:
        try:
            return datetime.strptime(value, "%Y-%m-%d").date()
        except (TypeError, ValueError):
            return None

    def _next_id(self, prefix: str, container: dict) -> str:
        # Deterministic ids (L005, L006, ...) keep reference solutions replayable.
        n = len(container) + 1
        while f"{prefix}{n:03d}" in container:
            n += 1
        return f"{prefix}{n:03d}"

    def _active_loans(self, member_id: str) -> List[LoanInfo]:
        return [l for l in self.loans.values() if l["member_id"] == member_id and l["status"] == "active"]

    def _is_overdue(self, loan: dict) -> bool:
        due = self._parse_date(loan.get("due_date"))
        return loan.get("status") == "active" and due is not None and due < self._today()

    def _waiting_holds(self, book_id: str) -> List[HoldInfo]:
        waiting = [h for h in self.holds.values() if h["book_id"] == book_id and h["status"] == "waiting"]
        return sorted(waiting, key=lambda h: (h["placed_date"], h["hold_id"]))

    def _add_fine(self, member_id: str, amount: float) -> None:
        member = _get(self.members, member_id)
        if member and amount > 0:
            member["fines_due"] = round(member["fines_due"] + amount, 2)

    # ------------------------------------------------------------------ queries

    def search_catalog(self, query: str, available_only: bool = False) -> dict:
        """
        Search titles by title, author or ISBN (case-insensitive substring).

        Args:
            query (str): Text to look for.
            available_only (bool): Only titles with at least one borrowable copy on the shelf.

        Returns:
            dict: {"success": True, "data": List[dict]} where each item is a BookInfo plus
                  "available_copies" (int), or {"success": False, "error": str}.
        """
        needle = _text(query).lower()
        if not needle:
            return {"success": False, "error": "Search text must not be empty"}
        result = []
        for book in self.books.values():
            haystack = f"{book['title']} {book['author']} {book['isbn']}".lower()
            if needle not in haystack:
                continue
            available = sum(
                1
                for c in self.copies.values()
                if c["book_id"] == book["book_id"] and c["status"] == "available" and not c["is_reference"]
            )
            if available_only and available == 0:
                continue
            item = copy.deepcopy(book)
            item["available_copies"] = available
            result.append(item)
        return {"success": True, "data": result}

    def get_member(self, member_id: str) -> dict:
        """
        Retrieve a member's record.

        Args:
            member_id (str): The member's id.

        Returns:
            dict: {"success": True, "data": MemberInfo} or {"success": False, "error": str}.
        """
        member = _get(self.members, member_id)
        if not member:
            return {"success": False, "error": f"Member {member_id} not found"}
        return {"success": True, "data": copy.deepcopy(member)}

    def find_member_by_email(self, email: str) -> dict:
        """
        Look up a member by e-mail address (case-insensitive, exact match).

        Args:
            email (str): The member's e-mail address.

        Returns:
            dict: {"success": True, "data": MemberInfo} or {"success": False, "error": str}.
        """
        wanted = _text(email).lower()
        for member in self.members.values():
            if member["email"].lower() == wanted:
                return {"success": True, "data": copy.deepcopy(member)}
        return {"success": False, "error": f"No member with e-mail {email}"}

    def get_book_copies(self, book_id: str, branch: Optional[str] = None) -> dict:
        """
        List the physical copies of a title, optionally at one branch.

        Args:
            book_id (str): The title's id.
            branch (Optional[str]): Branch name, e.g. "Central" or "Riverside".

        Returns:
            dict: {"success": True, "data": List[CopyInfo]} or {"success": False, "error": str}.
        """
        if _get(self.books, book_id) is None:
            return {"success": False, "error": f"Book {book_id} not found"}
        copies = [
            copy.deepcopy(c)
            for c in self.copies.values()
            if c["book_id"] == book_id and (branch is None or c["branch"].lower() == _text(branch).lower())
        ]
        return {"success": True, "data": copies}

    def list_member_loans(self, member_id: str, include_returned: bool = False) -> dict:
        """
        List a member's loans with titles and an overdue flag.

        Args:
            member_id (str): The member's id.
            include_returned (bool): Also list returned and lost loans.

        Returns:
            dict: {"success": True, "data": List[dict]} (LoanInfo plus "title" and "overdue"),
                  or {"success": False, "error": str}.
        """
        if _get(self.members, member_id) is None:
            return {"success": False, "error": f"Member {member_id} not found"}
        result = []
        for loan in self.loans.values():
            if loan["member_id"] != member_id:
                continue
            if not include_returned and loan["status"] != "active":
                continue
            item = copy.deepcopy(loan)
            book_id = self.copies.get(loan["copy_id"], {}).get("book_id")
            item["title"] = self.books.get(book_id, {}).get("title")
            item["overdue"] = self._is_overdue(loan)
            result.append(item)
        return {"success": True, "data": result}

    def list_holds(self, book_id: str) -> dict:
        """
        List the open (waiting or ready) holds on a title in queue order.

        Args:
            book_id (str): The title's id.

        Returns:
            dict: {"success": True, "data": List[HoldInfo]} or {"success": False, "error": str}.
        """
        if _get(self.books, book_id) is None:
            return {"success": False, "error": f"Book {book_id} not found"}
        holds = [
            copy.deepcopy(h)
            for h in self.holds.values()
            if h["book_id"] == book_id and h["status"] in ("waiting", "ready")
        ]
        holds.sort(key=lambda h: (h["placed_date"], h["hold_id"]))
        return {"success": True, "data": holds}

    # ------------------------------------------------------------------ state changes

    def checkout_copy(self, member_id: str, copy_id: str) -> dict:
        """
        Lend a copy to a member for 21 days.

        Args:
            member_id (str): The borrowing member.
            copy_id (str): The copy being borrowed.

        Returns:
            dict: {"success": True, "message": str, "data": LoanInfo} or {"success": False, "error": str}.

        Constraints:
            - Member must be active, owe less than 10.00 and have no overdue loan.
            - Active loans must stay within the tier limit (standard 3, premium 6).
            - Reference copies cannot be borrowed.
            - The copy must be available, or on the hold shelf reserved for this member
              (which fulfils their hold).
        """
        member = _get(self.members, member_id)
        if not member:
            return {"success": False, "error": f"Member {member_id} not found"}
        item = _get(self.copies, copy_id)
        if not item:
            return {"success": False, "error": f"Copy {copy_id} not found"}
        if member["status"] != "active":
            return {"success": False, "error": f"Member account is {member['status']}"}
        if member["fines_due"] >= FINE_BLOCK_THRESHOLD:
            return {"success": False, "error": f"Member owes {member['fines_due']:.2f}; fines must be below {FINE_BLOCK_THRESHOLD:.2f} to borrow"}
        active = self._active_loans(member_id)
        overdue = [l["loan_id"] for l in active if self._is_overdue(l)]
        if overdue:
            return {"success": False, "error": f"Member has overdue loans {overdue}; return them first"}
        limit = LOAN_LIMITS.get(member["tier"], LOAN_LIMITS["standard"])
        if len(active) >= limit:
            return {"success": False, "error": f"Loan limit reached ({limit} for {member['tier']} members)"}
        if item["is_reference"]:
            return {"success": False, "error": "Reference copies cannot leave the library"}
        if item["status"] == "on_hold_shelf":
            if item.get("reserved_for") != member_id:
                return {"success": False, "error": "This copy is reserved for another member"}
        elif item["status"] != "available":
            return {"success": False, "error": f"Copy is not available (status: {item['status']})"}

        for hold in self.holds.values():
            if hold["member_id"] == member_id and hold["book_id"] == item["book_id"] and hold["status"] in ("waiting", "ready"):
                hold["status"] = "fulfilled"
                hold["copy_id"] = copy_id
        today = self._today()
        loan_id = self._next_id("L", self.loans)
        loan: LoanInfo = {
            "loan_id": loan_id,
            "copy_id": copy_id,
            "member_id": member_id,
            "checkout_date": today.isoformat(),
            "due_date": (today + timedelta(days=LOAN_DAYS)).isoformat(),
            "returned_date": None,
            "renewals": 0,
            "status": "active",
        }
        self.loans[loan_id] = loan
        item["status"] = "on_loan"
        item["reserved_for"] = None
        return {"success": True, "message": f"Loan {loan_id} created, due {loan['due_date']}", "data": copy.deepcopy(loan)}

    def return_copy(self, copy_id: str, condition: Literal["good", "damaged"] = "good") -> dict:
        """
        Check a borrowed copy back in, charging late and damage fees.

        Args:
            copy_id (str): The copy being returned.
            condition (Literal["good", "damaged"]): State of the copy on return.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - The copy must be on an active loan.
            - Late returns cost 0.25 per day past the due date.
            - Damaged copies cost 15.00 and go to repair (status "in_repair").
            - A good copy is set aside for the oldest waiting hold on the title (hold becomes "ready"),
              otherwise it becomes available.
        """
        if condition not in ("good", "damaged"):
            return {"success": False, "error": "Condition must be 'good' or 'damaged'"}
        item = _get(self.copies, copy_id)
        if not item:
            return {"success": False, "error": f"Copy {copy_id} not found"}
        loan = next((l for l in self.loans.values() if l["copy_id"] == copy_id and l["status"] == "active"), None)
        if not loan:
            return {"success": False, "error": f"Copy {copy_id} is not on loan"}
        today = self._today()
        due = self._parse_date(loan["due_date"]) or today
        days_late = max(0, (today - due).days)
        fee = round(days_late * LATE_FEE_PER_DAY, 2)
        if condition == "damaged":
            fee = round(fee + DAMAGE_FEE, 2)
        self._add_fine(loan["member_id"], fee)
        loan["status"] = "returned"
        loan["returned_date"] = today.isoformat()

        note = ""
        if condition == "damaged":
            item["status"] = "in_repair"
            item["reserved_for"] = None
        else:
            queue = self._waiting_holds(item["book_id"])
            if queue:
                hold = queue[0]
                hold["status"] = "ready"
                hold["copy_id"] = copy_id
                item["status"] = "on_hold_shelf"
                item["reserved_for"] = hold["member_id"]
                note = f" Copy set aside for hold {hold['hold_id']}."
            else:
                item["status"] = "available"
                item["reserved_for"] = None
        charged = f" Charged {fee:.2f}." if fee else ""
        return {"success": True, "message": f"Loan {loan['loan_id']} returned.{charged}{note}"}

    def renew_loan(self, loan_id: str) -> dict:
        """
        Extend an active loan by 14 days from its current due date.

        Args:
            loan_id (str): The loan's id.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - At most 2 renewals per loan; overdue loans cannot be renewed.
            - Member must be active and owe less than 10.00.
            - Not renewable while another member has a waiting hold on the title.
        """
        loan = _get(self.loans, loan_id)
        if not loan:
            return {"success": False, "error": f"Loan {loan_id} not found"}
        if loan["status"] != "active":
            return {"success": False, "error": f"Loan is {loan['status']}"}
        member = self.members.get(loan["member_id"])
        if not member or member["status"] != "active":
            return {"success": False, "error": "Member account is not active"}
        if member["fines_due"] >= FINE_BLOCK_THRESHOLD:
            return {"success": False, "error": f"Member owes {member['fines_due']:.2f}; settle fines before renewing"}
        if loan["renewals"] >= MAX_RENEWALS:
            return {"success": False, "error": f"Loan already renewed {MAX_RENEWALS} times"}
        if self._is_overdue(loan):
            return {"success": False, "error": "Overdue loans cannot be renewed; return the copy"}
        book_id = self.copies.get(loan["copy_id"], {}).get("book_id")
        if any(h["member_id"] != loan["member_id"] for h in self._waiting_holds(book_id)):
            return {"success": False, "error": "Another member is waiting for this title"}
        due = self._parse_date(loan["due_date"]) or self._today()
        loan["due_date"] = (due + timedelta(days=RENEWAL_DAYS)).isoformat()
        loan["renewals"] += 1
        return {"success": True, "message": f"Loan {loan_id} renewed until {loan['due_date']}"}

    def report_lost(self, loan_id: str) -> dict:
        """
        Record that the borrower lost the copy; charges the title's replacement cost.

        Args:
            loan_id (str): The active loan whose copy was lost.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only active loans; the copy is marked "lost" and no late fee is added.
        """
        loan = _get(self.loans, loan_id)
        if not loan:
            return {"success": False, "error": f"Loan {loan_id} not found"}
        if loan["status"] != "active":
            return {"success": False, "error": f"Loan is {loan['status']}"}
        item = self.copies.get(loan["copy_id"])
        book = self.books.get(item["book_id"]) if item else None
        cost = float(book["replacement_cost"]) if book else 0.0
        self._add_fine(loan["member_id"], cost)
        loan["status"] = "lost"
        if item:
            item["status"] = "lost"
            item["reserved_for"] = None
        return {"success": True, "message": f"Copy reported lost; replacement cost {cost:.2f} charged"}

    def place_hold(self, member_id: str, book_id: str) -> dict:
        """
        Join the queue for a title that has no copy on the shelf.

        Args:
            member_id (str): The member placing the hold.
            book_id (str): The title's id.

        Returns:
            dict: {"success": True, "message": str, "data": HoldInfo} or {"success": False, "error": str}.

        Constraints:
            - Member must be active and owe less than 10.00.
            - No borrowable copy of the title may be available (borrow it instead).
            - One open hold per member and title; not for a title the member has on loan.
        """
        member = _get(self.members, member_id)
        if not member:
            return {"success": False, "error": f"Member {member_id} not found"}
        if _get(self.books, book_id) is None:
            return {"success": False, "error": f"Book {book_id} not found"}
        if member["status"] != "active":
            return {"success": False, "error": f"Member account is {member['status']}"}
        if member["fines_due"] >= FINE_BLOCK_THRESHOLD:
            return {"success": False, "error": f"Member owes {member['fines_due']:.2f}; settle fines before placing holds"}
        if any(
            c["book_id"] == book_id and c["status"] == "available" and not c["is_reference"]
            for c in self.copies.values()
        ):
            return {"success": False, "error": "A copy is available on the shelf; borrow it instead"}
        if any(self.copies.get(l["copy_id"], {}).get("book_id") == book_id for l in self._active_loans(member_id)):
            return {"success": False, "error": "Member already has this title on loan"}
        for hold in self.holds.values():
            if hold["member_id"] == member_id and hold["book_id"] == book_id and hold["status"] in ("waiting", "ready"):
                return {"success": False, "error": f"Member already holds this title ({hold['hold_id']})"}
        hold_id = self._next_id("H", self.holds)
        hold: HoldInfo = {
            "hold_id": hold_id,
            "book_id": book_id,
            "member_id": member_id,
            "placed_date": self._today().isoformat(),
            "status": "waiting",
            "copy_id": None,
        }
        self.holds[hold_id] = hold
        return {"success": True, "message": f"Hold {hold_id} placed", "data": copy.deepcopy(hold)}

    def cancel_hold(self, hold_id: str) -> dict:
        """
        Cancel a waiting or ready hold; a copy set aside for it passes to the next in line.

        Args:
            hold_id (str): The hold's id.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.
        """
        hold = _get(self.holds, hold_id)
        if not hold:
            return {"success": False, "error": f"Hold {hold_id} not found"}
        if hold["status"] not in ("waiting", "ready"):
            return {"success": False, "error": f"Hold is {hold['status']}"}
        set_aside = hold["copy_id"] if hold["status"] == "ready" else None
        hold["status"] = "cancelled"
        if set_aside and set_aside in self.copies:
            item = self.copies[set_aside]
            queue = self._waiting_holds(hold["book_id"])
            if queue:
                queue[0]["status"] = "ready"
                queue[0]["copy_id"] = set_aside
                item["reserved_for"] = queue[0]["member_id"]
            else:
                item["status"] = "available"
                item["reserved_for"] = None
        return {"success": True, "message": f"Hold {hold_id} cancelled"}

    def pay_fines(self, member_id: str, amount: float) -> dict:
        """
        Record a payment towards a member's fines.

        Args:
            member_id (str): The member's id.
            amount (float): Amount paid; positive and at most the fines due.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.
        """
        member = _get(self.members, member_id)
        if not member:
            return {"success": False, "error": f"Member {member_id} not found"}
        try:
            amount = round(float(amount), 2)
        except (TypeError, ValueError):
            return {"success": False, "error": "Amount must be a number"}
        if amount <= 0:
            return {"success": False, "error": "Amount must be positive"}
        if amount > member["fines_due"] + 1e-9:
            return {"success": False, "error": f"Amount exceeds fines due ({member['fines_due']:.2f})"}
        member["fines_due"] = round(member["fines_due"] - amount, 2)
        return {"success": True, "message": f"Payment recorded; {member['fines_due']:.2f} still due"}

    def change_membership_tier(self, member_id: str, tier: Literal["standard", "premium"]) -> dict:
        """
        Switch a member between the standard and premium tiers.

        Args:
            member_id (str): The member's id.
            tier (Literal["standard", "premium"]): The new tier.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Upgrading to premium requires an active account with no fines due.
            - Downgrading is refused while the member has more active loans than the standard limit.
        """
        member = _get(self.members, member_id)
        if not member:
            return {"success": False, "error": f"Member {member_id} not found"}
        if _get(LOAN_LIMITS, tier) is None:
            return {"success": False, "error": f"Unknown tier {tier}"}
        if member["tier"] == tier:
            return {"success": False, "error": f"Member is already {tier}"}
        if tier == "premium" and (member["status"] != "active" or member["fines_due"] > 0):
            return {"success": False, "error": "Premium requires an active account with no fines due"}
        if tier == "standard" and len(self._active_loans(member_id)) > LOAN_LIMITS["standard"]:
            return {"success": False, "error": "Too many active loans for the standard tier"}
        member["tier"] = tier
        return {"success": True, "message": f"Member {member_id} is now {tier}"}
