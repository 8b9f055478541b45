from typing import Dict, List, Optional, TypedDict, Literal
from datetime import datetime, timedelta
import copy


class PatientInfo(TypedDict):
    patient_id: str
    name: str
    date_of_birth: str
    phone: str
    insurance_provider: Optional[str]  # None means self-pay
    copay: float
    outstanding_balance: float
    no_show_count: int


class DoctorInfo(TypedDict):
    doctor_id: str
    name: str
    specialty: str
    accepted_insurance: List[str]
    offers_telehealth: bool
    consultation_fee: float


class SlotInfo(TypedDict):
    slot_id: str
    doctor_id: str
    start_time: str  # ISO "YYYY-MM-DDTHH:MM", clinic local time
    duration_minutes: int
    status: str  # "open" | "booked" | "blocked"


class AppointmentInfo(TypedDict):
    appointment_id: str
    patient_id: str
    doctor_id: str
    slot_id: str
    visit_type: str  # "in_person" | "telehealth"
    reason: str
    status: str  # "scheduled" | "checked_in" | "completed" | "cancelled" | "no_show"
    notes: str
    fee_charged: float
    cancellation_reason: Optional[str]


class WaitlistEntryInfo(TypedDict):
    entry_id: str
    patient_id: str
    doctor_id: str
    preferred_dates: List[str]  # "YYYY-MM-DD"
    status: str  # "waiting" | "fulfilled" | "removed"


def _get(container: dict, key):
    # Tool arguments come from an LLM: a list or dict where an id belongs must fail softly, not raise.
    return container.get(key) if isinstance(key, str) else None


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


ACTIVE_STATUSES = ("scheduled", "checked_in")
LATE_CANCEL_WINDOW_HOURS = 24
LATE_CANCEL_FEE = 25.0
BOOKING_BALANCE_LIMIT = 100.0
MAX_NO_SHOWS = 3


class ClinicSchedulingSystem:
    def __init__(self, init_config: dict = None):
        """
        Outpatient clinic scheduling: patients, doctors, bookable time slots,
        appointments and a per-doctor waitlist.
        """
        config = copy.deepcopy(init_config or {})

        # Patients: patient_id -> PatientInfo
        self.patients: Dict[str, PatientInfo] = config.get("patients", {})
        # Doctors: doctor_id -> DoctorInfo
        self.doctors: Dict[str, DoctorInfo] = config.get("doctors", {})
        # Slots: slot_id -> SlotInfo
        self.slots: Dict[str, SlotInfo] = config.get("slots", {})
        # Appointments: appointment_id -> AppointmentInfo
        self.appointments: Dict[str, AppointmentInfo] = config.get("appointments", {})
        # Waitlist entries: entry_id -> WaitlistEntryInfo
        self.waitlist: Dict[str, WaitlistEntryInfo] = config.get("waitlist", {})
        # The clinic's "now"; every time rule is evaluated against it so episodes are reproducible.
        self.current_time: str = config.get("current_time", "2025-03-10T08:00")

        # Constraints:
        # - A slot carries at most one active appointment; only "open" slots in the future can be booked.
        # - A patient cannot hold two active appointments that overlap in time.
        # - A patient holds at most one active appointment per doctor.
        # - The doctor must accept the patient's insurance (self-pay patients are always accepted).
        # - Telehealth visits only with doctors who offer telehealth.
        # - Patients owing more than 100.00 or with 3+ no-shows cannot book until resolved.
        # - Cancelling within 24 hours of the start adds a 25.00 late fee unless explicitly waived.
        # - Check-in only on the day of the appointment; completion only after check-in.
        # - A cancelled or rescheduled appointment frees its slot again.

    # ------------------------------------------------------------------ helpers

    def _parse(self, value: str) -> Optional[datetime]:
        try:
            return datetime.strptime(value, "%Y-%m-%dT%H:%M")
        except (TypeError, ValueError):
            return None

    def _now(self) -> datetime:
        return self._parse(self.current_time) or datetime(2025, 1, 1)

    def _next_id(self, prefix: str, container: dict) -> str:
        # Deterministic ids (APT0001, APT0002, ...) keep reference solutions replayable.
        n = len(container) + 1
        while f"{prefix}{n:04d}" in container:
            n += 1
        return f"{prefix}{n:04d}"

    def _slot_window(self, slot: dict):
        start = self._parse(slot.get("start_time", ""))
        if start is None:
            return None, None
        return start, start + timedelta(minutes=int(slot.get("duration_minutes", 0)))

    def _overlapping_appointment(self, patient_id: str, slot: dict, ignore_id: str = "") -> Optional[str]:
        start, end = self._slot_window(slot)
        if start is None:
            return None
        for appt in self.appointments.values():
            if appt["patient_id"] != patient_id or appt["status"] not in ACTIVE_STATUSES:
                continue
            if appt["appointment_id"] == ignore_id:
                continue
            other = self.slots.get(appt["slot_id"])
            if not other:
                continue
            o_start, o_end = self._slot_window(other)
            if o_start is not None and start < o_end and o_start < end:
                return appt["appointment_id"]
        return None

    def _bookable_slot_error(self, slot_id: str) -> Optional[str]:
        slot = _get(self.slots, slot_id)
        if not slot:
            return f"Slot {slot_id} does not exist"
        if slot["status"] != "open":
            return f"Slot {slot_id} is not open (status: {slot['status']})"
        start, _ = self._slot_window(slot)
        if start is None or start <= self._now():
            return f"Slot {slot_id} is in the past"
        return None

    # ------------------------------------------------------------------ queries

    def find_patients(self, name: str) -> dict:
        """
        Find patients whose name contains the given text (case-insensitive).

        Args:
            name (str): Full or partial patient name.

        Returns:
            dict: {"success": True, "data": List[PatientInfo]} (possibly empty),
                  or {"success": False, "error": str} if the query is empty.

        Constraints:
            - The search text must not be blank.
        """
        needle = _text(name).lower()
        if not needle:
            return {"success": False, "error": "Search text must not be empty"}
        matches = [p for p in self.patients.values() if needle in p["name"].lower()]
        return {"success": True, "data": copy.deepcopy(matches)}

    def get_patient(self, patient_id: str) -> dict:
        """
        Retrieve a patient's record, including insurance and balance.

        Args:
            patient_id (str): The patient's id.

        Returns:
            dict: {"success": True, "data": PatientInfo} or {"success": False, "error": str}.
        """
        patient = _get(self.patients, patient_id)
        if not patient:
            return {"success": False, "error": f"Patient {patient_id} not found"}
        return {"success": True, "data": copy.deepcopy(patient)}

    def list_doctors(self, specialty: Optional[str] = None, telehealth_only: bool = False) -> dict:
        """
        List doctors, optionally filtered by specialty and telehealth availability.

        Args:
            specialty (Optional[str]): Specialty to match exactly (case-insensitive), e.g. "Dermatology".
            telehealth_only (bool): If True, only doctors offering telehealth visits.

        Returns:
            dict: {"success": True, "data": List[DoctorInfo]}.
        """
        result = []
        for doc in self.doctors.values():
            if specialty and doc["specialty"].lower() != _text(specialty).lower():
                continue
            if telehealth_only and not doc.get("offers_telehealth"):
                continue
            result.append(copy.deepcopy(doc))
        return {"success": True, "data": result}

    def list_open_slots(self, doctor_id: str, date: Optional[str] = None) -> dict:
        """
        List a doctor's open future slots, earliest first.

        Args:
            doctor_id (str): The doctor's id.
            date (Optional[str]): Restrict to one day, "YYYY-MM-DD".

        Returns:
            dict: {"success": True, "data": List[SlotInfo]} or {"success": False, "error": str}.

        Constraints:
            - Slots in the past (relative to the clinic's current time) are never listed.
        """
        if _get(self.doctors, doctor_id) is None:
            return {"success": False, "error": f"Doctor {doctor_id} not found"}
        now = self._now()
        result = []
        for slot in self.slots.values():
            if slot["doctor_id"] != doctor_id or slot["status"] != "open":
                continue
            start, _ = self._slot_window(slot)
            if start is None or start <= now:
                continue
            if date and not slot["start_time"].startswith(_text(date)):
                continue
            result.append(copy.deepcopy(slot))
        result.sort(key=lambda s: s["start_time"])
        return {"success": True, "data": result}

    def list_patient_appointments(self, patient_id: str, active_only: bool = True) -> dict:
        """
        List a patient's appointments with their slot times.

        Args:
            patient_id (str): The patient's id.
            active_only (bool): If True (default), only scheduled or checked-in appointments.

        Returns:
            dict: {"success": True, "data": List[dict]} where each item is an AppointmentInfo
                  plus "start_time", or {"success": False, "error": str}.
        """
        if _get(self.patients, patient_id) is None:
            return {"success": False, "error": f"Patient {patient_id} not found"}
        result = []
        for appt in self.appointments.values():
            if appt["patient_id"] != patient_id:
                continue
            if active_only and appt["status"] not in ACTIVE_STATUSES:
                continue
            item = copy.deepcopy(appt)
            item["start_time"] = self.slots.get(appt["slot_id"], {}).get("start_time")
            result.append(item)
        result.sort(key=lambda a: a["start_time"] or "")
        return {"success": True, "data": result}

    def get_waitlist(self, doctor_id: str) -> dict:
        """
        Show the waiting entries for a doctor, oldest first.

        Args:
            doctor_id (str): The doctor's id.

        Returns:
            dict: {"success": True, "data": List[WaitlistEntryInfo]} or {"success": False, "error": str}.
        """
        if _get(self.doctors, doctor_id) is None:
            return {"success": False, "error": f"Doctor {doctor_id} not found"}
        entries = [
            copy.deepcopy(e)
            for e in self.waitlist.values()
            if e["doctor_id"] == doctor_id and e["status"] == "waiting"
        ]
        entries.sort(key=lambda e: e["entry_id"])
        return {"success": True, "data": entries}

    # ------------------------------------------------------------------ state changes

    def book_appointment(
        self,
        patient_id: str,
        slot_id: str,
        reason: str,
        visit_type: Literal["in_person", "telehealth"] = "in_person",
    ) -> dict:
        """
        Book an open slot for a patient.

        Args:
            patient_id (str): The patient's id.
            slot_id (str): An open, future slot.
            reason (str): Reason for the visit (non-empty).
            visit_type (Literal["in_person", "telehealth"]): Visit modality.

        Returns:
            dict: {"success": True, "message": str, "data": AppointmentInfo} or {"success": False, "error": str}.

        Constraints:
            - Slot must be open and in the future.
            - Doctor must accept the patient's insurance (self-pay always accepted).
            - Telehealth only if the doctor offers it.
            - Patient must owe at most 100.00 and have fewer than 3 no-shows.
            - No overlapping active appointment; at most one active appointment per doctor.
            - If the patient was waiting for this doctor, the waitlist entry becomes "fulfilled".
        """
        patient = _get(self.patients, patient_id)
        if not patient:
            return {"success": False, "error": f"Patient {patient_id} not found"}
        if not _text(reason):
            return {"success": False, "error": "A reason for the visit is required"}
        if visit_type not in ("in_person", "telehealth"):
            return {"success": False, "error": f"Unknown visit type {visit_type}"}
        error = self._bookable_slot_error(slot_id)
        if error:
            return {"success": False, "error": error}
        slot = self.slots[slot_id]
        doctor = self.doctors.get(slot["doctor_id"])
        if not doctor:
            return {"success": False, "error": f"Doctor {slot['doctor_id']} not found"}
        if patient["outstanding_balance"] > BOOKING_BALANCE_LIMIT:
            return {
                "success": False,
                "error": f"Patient owes {patient['outstanding_balance']:.2f}; balance must be at most {BOOKING_BALANCE_LIMIT:.2f} to book",
            }
        if patient["no_show_count"] >= MAX_NO_SHOWS:
            return {"success": False, "error": "Patient has too many no-shows and must book at the front desk"}
        insurer = patient.get("insurance_provider")
        if insurer and insurer not in doctor["accepted_insurance"]:
            return {"success": False, "error": f"{doctor['name']} does not accept {insurer}"}
        if visit_type == "telehealth" and not doctor["offers_telehealth"]:
            return {"success": False, "error": f"{doctor['name']} does not offer telehealth"}
        for appt in self.appointments.values():
            if (
                appt["patient_id"] == patient_id
                and appt["doctor_id"] == doctor["doctor_id"]
                and appt["status"] in ACTIVE_STATUSES
            ):
                return {
                    "success": False,
                    "error": f"Patient already has active appointment {appt['appointment_id']} with this doctor; reschedule it instead",
                }
        clash = self._overlapping_appointment(patient_id, slot)
        if clash:
            return {"success": False, "error": f"Overlaps with appointment {clash}"}

        appointment_id = self._next_id("APT", self.appointments)
        appointment: AppointmentInfo = {
            "appointment_id": appointment_id,
            "patient_id": patient_id,
            "doctor_id": doctor["doctor_id"],
            "slot_id": slot_id,
            "visit_type": visit_type,
            "reason": _text(reason),
            "status": "scheduled",
            "notes": "",
            "fee_charged": 0.0,
            "cancellation_reason": None,
        }
        self.appointments[appointment_id] = appointment
        slot["status"] = "booked"
        for entry in self.waitlist.values():
            if (
                entry["patient_id"] == patient_id
                and entry["doctor_id"] == doctor["doctor_id"]
                and entry["status"] == "waiting"
            ):
                entry["status"] = "fulfilled"
        return {
            "success": True,
            "message": f"Booked {appointment_id} with {doctor['name']} at {slot['start_time']}",
            "data": copy.deepcopy(appointment),
        }

    def cancel_appointment(self, appointment_id: str, reason: str, waive_late_fee: bool = False) -> dict:
        """
        Cancel a scheduled appointment and free its slot.

        Args:
            appointment_id (str): The appointment's id.
            reason (str): Why it is cancelled (non-empty).
            waive_late_fee (bool): Waive the late fee (e.g. clinic-initiated cancellation).

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only "scheduled" appointments can be cancelled.
            - Within 24 hours of the start, a 25.00 late fee is added to the patient's balance
              unless waive_late_fee is True.
        """
        appt = _get(self.appointments, appointment_id)
        if not appt:
            return {"success": False, "error": f"Appointment {appointment_id} not found"}
        if appt["status"] != "scheduled":
            return {"success": False, "error": f"Appointment is {appt['status']}, only scheduled ones can be cancelled"}
        if not _text(reason):
            return {"success": False, "error": "A cancellation reason is required"}
        slot = self.slots.get(appt["slot_id"], {})
        start, _ = self._slot_window(slot) if slot else (None, None)
        fee = 0.0
        if start is not None and start - self._now() < timedelta(hours=LATE_CANCEL_WINDOW_HOURS) and not waive_late_fee:
            fee = LATE_CANCEL_FEE
            patient = self.patients.get(appt["patient_id"])
            if patient:
                patient["outstanding_balance"] = round(patient["outstanding_balance"] + fee, 2)
        appt["status"] = "cancelled"
        appt["cancellation_reason"] = _text(reason)
        appt["fee_charged"] = fee
        if slot:
            slot["status"] = "open"
        suffix = f" A late-cancellation fee of {fee:.2f} was charged." if fee else ""
        return {"success": True, "message": f"Appointment {appointment_id} cancelled.{suffix}"}

    def reschedule_appointment(self, appointment_id: str, new_slot_id: str) -> dict:
        """
        Move a scheduled appointment to another open slot of the same doctor.

        Args:
            appointment_id (str): The appointment's id.
            new_slot_id (str): An open, future slot belonging to the same doctor.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only "scheduled" appointments can be rescheduled; no fee applies.
            - The new slot must belong to the same doctor and not overlap another active appointment.
            - The old slot becomes open again.
        """
        appt = _get(self.appointments, appointment_id)
        if not appt:
            return {"success": False, "error": f"Appointment {appointment_id} not found"}
        if appt["status"] != "scheduled":
            return {"success": False, "error": f"Appointment is {appt['status']}, only scheduled ones can be rescheduled"}
        error = self._bookable_slot_error(new_slot_id)
        if error:
            return {"success": False, "error": error}
        new_slot = self.slots[new_slot_id]
        if new_slot["doctor_id"] != appt["doctor_id"]:
            return {"success": False, "error": "The new slot belongs to a different doctor; cancel and book instead"}
        clash = self._overlapping_appointment(appt["patient_id"], new_slot, ignore_id=appointment_id)
        if clash:
            return {"success": False, "error": f"Overlaps with appointment {clash}"}
        old_slot = self.slots.get(appt["slot_id"])
        if old_slot:
            old_slot["status"] = "open"
        new_slot["status"] = "booked"
        appt["slot_id"] = new_slot_id
        return {"success": True, "message": f"Appointment {appointment_id} moved to {new_slot['start_time']}"}

    def check_in_patient(self, appointment_id: str) -> dict:
        """
        Check a patient in for today's appointment.

        Args:
            appointment_id (str): The appointment's id.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Appointment must be "scheduled" and on the clinic's current date.
        """
        appt = _get(self.appointments, appointment_id)
        if not appt:
            return {"success": False, "error": f"Appointment {appointment_id} not found"}
        if appt["status"] != "scheduled":
            return {"success": False, "error": f"Appointment is {appt['status']}"}
        start = self._parse(self.slots.get(appt["slot_id"], {}).get("start_time", ""))
        if start is None or start.date() != self._now().date():
            return {"success": False, "error": "Check-in is only possible on the day of the appointment"}
        appt["status"] = "checked_in"
        return {"success": True, "message": f"Patient checked in for {appointment_id}"}

    def complete_appointment(self, appointment_id: str, notes: str) -> dict:
        """
        Close a checked-in visit and bill the patient.

        Args:
            appointment_id (str): The appointment's id.
            notes (str): Clinical notes for the visit (non-empty).

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only "checked_in" appointments can be completed.
            - Insured patients are billed their copay; self-pay patients the doctor's consultation fee.
        """
        appt = _get(self.appointments, appointment_id)
        if not appt:
            return {"success": False, "error": f"Appointment {appointment_id} not found"}
        if appt["status"] != "checked_in":
            return {"success": False, "error": "Only checked-in appointments can be completed"}
        if not _text(notes):
            return {"success": False, "error": "Visit notes are required"}
        patient = self.patients.get(appt["patient_id"])
        doctor = self.doctors.get(appt["doctor_id"])
        if not patient or not doctor:
            return {"success": False, "error": "Appointment references a missing patient or doctor"}
        fee = patient["copay"] if patient.get("insurance_provider") else doctor["consultation_fee"]
        patient["outstanding_balance"] = round(patient["outstanding_balance"] + fee, 2)
        appt["status"] = "completed"
        appt["notes"] = _text(notes)
        appt["fee_charged"] = fee
        return {"success": True, "message": f"Visit completed; {fee:.2f} billed to the patient"}

    def mark_no_show(self, appointment_id: str) -> dict:
        """
        Record that a patient missed a scheduled appointment.

        Args:
            appointment_id (str): The appointment's id.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only "scheduled" appointments whose start time has passed.
            - Increments the patient's no_show_count.
        """
        appt = _get(self.appointments, appointment_id)
        if not appt:
            return {"success": False, "error": f"Appointment {appointment_id} not found"}
        if appt["status"] != "scheduled":
            return {"success": False, "error": f"Appointment is {appt['status']}"}
        start = self._parse(self.slots.get(appt["slot_id"], {}).get("start_time", ""))
        if start is None or start > self._now():
            return {"success": False, "error": "The appointment has not started yet"}
        appt["status"] = "no_show"
        patient = self.patients.get(appt["patient_id"])
        if patient:
            patient["no_show_count"] += 1
        return {"success": True, "message": f"Appointment {appointment_id} marked as no-show"}

    def record_payment(self, patient_id: str, amount: float) -> dict:
        """
        Record a payment against a patient's outstanding balance.

        Args:
            patient_id (str): The patient's id.
            amount (float): Amount paid; positive and at most the outstanding balance.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.
        """
        patient = _get(self.patients, patient_id)
        if not patient:
            return {"success": False, "error": f"Patient {patient_id} not found"}
        try:
            amount = float(amount)
        except (TypeError, ValueError):
            return {"success": False, "error": "Amount must be a number"}
        if amount <= 0:
            return {"success": False, "error": "Amount must be positive"}
        if amount > patient["outstanding_balance"] + 1e-9:
            return {"success": False, "error": f"Amount exceeds the balance of {patient['outstanding_balance']:.2f}"}
        patient["outstanding_balance"] = round(patient["outstanding_balance"] - amount, 2)
        return {
            "success": True,
            "message": f"Payment recorded; remaining balance {patient['outstanding_balance']:.2f}",
        }

    def update_patient_insurance(self, patient_id: str, insurance_provider: Optional[str], copay: float = 0.0) -> dict:
        """
        Change a patient's insurance (or switch them to self-pay).

        Args:
            patient_id (str): The patient's id.
            insurance_provider (Optional[str]): New insurer name, or None for self-pay.
            copay (float): Copay per visit under the new plan (0.0 for self-pay).

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Copay cannot be negative.
        """
        patient = _get(self.patients, patient_id)
        if not patient:
            return {"success": False, "error": f"Patient {patient_id} not found"}
        if not isinstance(copay, (int, float)) or isinstance(copay, bool) or copay < 0:
            return {"success": False, "error": "Copay must be a non-negative number"}
        provider = _text(insurance_provider) or None
        patient["insurance_provider"] = provider
        patient["copay"] = float(copay) if provider else 0.0
        return {"success": True, "message": f"Insurance updated to {provider or 'self-pay'}"}

    def add_to_waitlist(self, patient_id: str, doctor_id: str, preferred_dates: List[str]) -> dict:
        """
        Put a patient on a doctor's waitlist for the given days.

        Args:
            patient_id (str): The patient's id.
            doctor_id (str): The doctor's id.
            preferred_dates (List[str]): One or more days, "YYYY-MM-DD".

        Returns:
            dict: {"success": True, "message": str, "data": WaitlistEntryInfo} or {"success": False, "error": str}.

        Constraints:
            - At most one waiting entry per patient and doctor.
            - Dates must be valid and not before the current date.
        """
        if _get(self.patients, patient_id) is None:
            return {"success": False, "error": f"Patient {patient_id} not found"}
        if _get(self.doctors, doctor_id) is None:
            return {"success": False, "error": f"Doctor {doctor_id} not found"}
        if not isinstance(preferred_dates, list) or not preferred_dates:
            return {"success": False, "error": "preferred_dates must be a non-empty list of YYYY-MM-DD strings"}
        today = self._now().date()
        for day in preferred_dates:
            try:
                parsed = datetime.strptime(day, "%Y-%m-%d").date()
            except (TypeError, ValueError):
                return {"success": False, "error": f"Invalid date {day}; use YYYY-MM-DD"}
            if parsed < today:
                return {"success": False, "error": f"Date {day} is in the past"}
        for entry in self.waitlist.values():
            if entry["patient_id"] == patient_id and entry["doctor_id"] == doctor_id and entry["status"] == "waiting":
                return {"success": False, "error": f"Patient is already on this waitlist ({entry['entry_id']})"}
        entry_id = self._next_id("WL", self.waitlist)
        entry: WaitlistEntryInfo = {
            "entry_id": entry_id,
            "patient_id": patient_id,
            "doctor_id": doctor_id,
            "preferred_dates": sorted(set(preferred_dates)),
            "status": "waiting",
        }
        self.waitlist[entry_id] = entry
        return {"success": True, "message": f"Added to waitlist as {entry_id}", "data": copy.deepcopy(entry)}
