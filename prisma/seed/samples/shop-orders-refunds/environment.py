from typing import Dict, List, Optional, TypedDict, Literal
from datetime import date, datetime, timedelta
import copy


class CustomerInfo(TypedDict):
    customer_id: str
    name: str
    email: str
    loyalty_tier: str  # "bronze" | "silver" | "gold"
    store_credit: float
    default_address: str


class ProductInfo(TypedDict):
    product_id: str
    name: str
    category: str
    price: float
    stock: int
    returnable: bool
    active: bool


class OrderItemInfo(TypedDict):
    product_id: str
    quantity: int
    unit_price: float
    refunded_quantity: int


class OrderInfo(TypedDict):
    order_id: str
    customer_id: str
    items: List[OrderItemInfo]
    status: str  # "paid" | "shipped" | "delivered" | "cancelled"
    shipping_address: str
    subtotal: float
    discount: float
    shipping_fee: float
    total: float
    amount_paid_card: float
    amount_paid_credit: float
    coupon_code: Optional[str]
    placed_date: str  # "YYYY-MM-DD"
    delivered_date: Optional[str]
    refunded_total: float


class RefundLineInfo(TypedDict):
    product_id: str
    quantity: int


class RefundInfo(TypedDict):
    refund_id: str
    order_id: str
    items: List[RefundLineInfo]
    amount: float
    reason: str
    status: str  # "requested" | "approved" | "rejected"
    method: Optional[str]  # "original_payment" | "store_credit", set on approval
    created_date: str


class CouponInfo(TypedDict):
    code: str
    discount_percent: int
    min_subtotal: float
    expires: str  # last valid day, "YYYY-MM-DD"
    used_by: List[str]  # customer ids; every coupon is once per customer
    active: bool


class CreditTransactionInfo(TypedDict):
    txn_id: str
    customer_id: str
    amount: float  # positive = credit granted, negative = credit spent
    reason: str
    date: str


def _get(container: dict, key):
    # Tool arguments come from an LLM: a list or dict where an id belongs must fail softly, not raise.
    return container.get(key) if isinstance(key, str) else None


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


RETURN_WINDOW_DAYS = 30
FREE_SHIPPING_THRESHOLD = 50.0
STANDARD_SHIPPING_FEE = 5.99
MAX_GOODWILL_CREDIT = 50.0


class OrderManagementSystem:
    def __init__(self, init_config: dict = None):
        """
        Online outdoor-gear shop back office: customers, catalogue, orders with line items,
        return/refund requests, coupons and a store-credit ledger.
        """
        config = copy.deepcopy(init_config or {})

        # Customers: customer_id -> CustomerInfo
        self.customers: Dict[str, CustomerInfo] = config.get("customers", {})
        # Catalogue: product_id -> ProductInfo
        self.products: Dict[str, ProductInfo] = config.get("products", {})
        # Orders: order_id -> OrderInfo (line items nested, prices frozen at purchase)
        self.orders: Dict[str, OrderInfo] = config.get("orders", {})
        # Refund requests: refund_id -> RefundInfo
        self.refunds: Dict[str, RefundInfo] = config.get("refunds", {})
        # Coupons: code -> CouponInfo
        self.coupons: Dict[str, CouponInfo] = config.get("coupons", {})
        # Store-credit ledger: txn_id -> CreditTransactionInfo
        self.credit_transactions: Dict[str, CreditTransactionInfo] = config.get("credit_transactions", {})
        # Business date ("YYYY-MM-DD"); return windows and coupon expiry are judged against it.
        self.current_date: str = config.get("current_date", "2025-05-20")

        # Constraints:
        # - Orders need active products with enough stock; placing an order reserves stock
        #   and captures payment (status "paid").
        # - A coupon must be active, unexpired, meet its minimum subtotal, and each customer
        #   may use a given coupon once. Discount = percent of the subtotal, rounded to cents.
        # - Shipping is free for gold customers and for discounted subtotals of 50.00 or more,
        #   otherwise 5.99. Store credit, when used, pays first; the card pays the rest.
        # - Only unshipped ("paid") orders can be cancelled or change shipping address;
        #   cancelling restocks items, returns credit to the customer and releases the coupon.
        # - Returns only for delivered orders within 30 days of delivery, returnable products,
        #   and quantities not already refunded. Refund = item price less the order's
        #   proportional discount; total refunds never exceed what was paid.
        # - An approved refund restocks the items and pays back to the original payment or as
        #   store credit; store credit movements are recorded in the ledger.
        # - Goodwill credit is at most 50.00 per grant and needs a reason.

    # ------------------------------------------------------------------ helpers

    def _today(self) -> date:
        try:
            return datetime.strptime(self.current_date, "%Y-%m-%d").date()
        except (TypeError, ValueError):
            return date(2025, 1, 1)

    def _next_id(self, prefix: str, container: dict, start: int = 1, width: int = 3) -> str:
        # Deterministic ids keep reference solutions replayable.
        n = start + len(container)
        while f"{prefix}{n:0{width}d}" in container:
            n += 1
        return f"{prefix}{n:0{width}d}"

    def _record_credit(self, customer_id: str, amount: float, reason: str) -> None:
        customer = _get(self.customers, customer_id)
        if not customer or amount == 0:
            return
        customer["store_credit"] = round(customer["store_credit"] + amount, 2)
        txn_id = self._next_id("T", self.credit_transactions)
        self.credit_transactions[txn_id] = {
            "txn_id": txn_id,
            "customer_id": customer_id,
            "amount": round(amount, 2),
            "reason": reason,
            "date": self._today().isoformat(),
        }

    def _coupon_error(self, code: str, customer_id: str, subtotal: float) -> Optional[str]:
        coupon = _get(self.coupons, code)
        if not coupon or not coupon.get("active"):
            return f"Coupon {code} is not valid"
        try:
            expires = datetime.strptime(coupon["expires"], "%Y-%m-%d").date()
        except (TypeError, ValueError):
            return f"Coupon {code} has an invalid expiry date"
        if expires < self._today():
            return f"Coupon {code} expired on {coupon['expires']}"
        if customer_id in coupon["used_by"]:
            return f"Customer has already used coupon {code}"
        if subtotal < coupon["min_subtotal"]:
            return f"Coupon {code} requires a subtotal of at least {coupon['min_subtotal']:.2f}"
        return None

    def _parse_lines(self, product_ids: List[str], quantities: List[int]):
        if (
            not isinstance(product_ids, list)
            or not isinstance(quantities, list)
            or not product_ids
            or len(product_ids) != len(quantities)
        ):
            return None, "product_ids and quantities must be non-empty lists of equal length"
        lines: Dict[str, int] = {}
        for pid, qty in zip(product_ids, quantities):
            if not isinstance(pid, str):
                return None, "product_ids must be strings"
            if not isinstance(qty, int) or isinstance(qty, bool) or qty <= 0:
                return None, f"Quantity for {pid} must be a positive integer"
            lines[pid] = lines.get(pid, 0) + qty
        return lines, None

    # ------------------------------------------------------------------ queries

    def find_customer_by_email(self, email: str) -> dict:
        """
        Look up a customer by e-mail address (case-insensitive).

        Args:
            email (str): The customer's e-mail address.

        Returns:
            dict: {"success": True, "data": CustomerInfo} or {"success": False, "error": str}.
        """
        wanted = _text(email).lower()
        for customer in self.customers.values():
            if customer["email"].lower() == wanted:
                return {"success": True, "data": copy.deepcopy(customer)}
        return {"success": False, "error": f"No customer with e-mail {email}"}

    def list_customer_orders(
        self,
        customer_id: str,
        status: Optional[Literal["paid", "shipped", "delivered", "cancelled"]] = None,
    ) -> dict:
        """
        List a customer's orders, newest first.

        Args:
            customer_id (str): The customer's id.
            status (Optional[Literal["paid", "shipped", "delivered", "cancelled"]]): Filter by status.

        Returns:
            dict: {"success": True, "data": List[OrderInfo]} or {"success": False, "error": str}.
        """
        if _get(self.customers, customer_id) is None:
            return {"success": False, "error": f"Customer {customer_id} not found"}
        orders = [
            copy.deepcopy(o)
            for o in self.orders.values()
            if o["customer_id"] == customer_id and (status is None or o["status"] == status)
        ]
        orders.sort(key=lambda o: (o["placed_date"], o["order_id"]), reverse=True)
        return {"success": True, "data": orders}

    def get_order(self, order_id: str) -> dict:
        """
        Retrieve an order with its line items and payment breakdown.

        Args:
            order_id (str): The order's id.

        Returns:
            dict: {"success": True, "data": OrderInfo} or {"success": False, "error": str}.
        """
        order = _get(self.orders, order_id)
        if not order:
            return {"success": False, "error": f"Order {order_id} not found"}
        return {"success": True, "data": copy.deepcopy(order)}

    def search_products(self, keyword: str, max_price: Optional[float] = None, in_stock_only: bool = True) -> dict:
        """
        Search active products by name or category.

        Args:
            keyword (str): Text to find in the product name or category (case-insensitive).
            max_price (Optional[float]): Only products at or below this price.
            in_stock_only (bool): Only products with stock > 0 (default True).

        Returns:
            dict: {"success": True, "data": List[ProductInfo]}.
        """
        needle = _text(keyword).lower()
        result = []
        for product in self.products.values():
            if not product["active"]:
                continue
            if needle and needle not in product["name"].lower() and needle not in product["category"].lower():
                continue
            if isinstance(max_price, (int, float)) and product["price"] > max_price:
                continue
            if in_stock_only and product["stock"] <= 0:
                continue
            result.append(copy.deepcopy(product))
        return {"success": True, "data": result}

    def get_coupon(self, code: str) -> dict:
        """
        Show a coupon's terms.

        Args:
            code (str): Coupon code (case-sensitive).

        Returns:
            dict: {"success": True, "data": CouponInfo} or {"success": False, "error": str}.
        """
        coupon = _get(self.coupons, code)
        if not coupon:
            return {"success": False, "error": f"Coupon {code} not found"}
        return {"success": True, "data": copy.deepcopy(coupon)}

    def list_refunds(self, order_id: str) -> dict:
        """
        List all refund requests for an order.

        Args:
            order_id (str): The order's id.

        Returns:
            dict: {"success": True, "data": List[RefundInfo]} or {"success": False, "error": str}.
        """
        if _get(self.orders, order_id) is None:
            return {"success": False, "error": f"Order {order_id} not found"}
        refunds = [copy.deepcopy(r) for r in self.refunds.values() if r["order_id"] == order_id]
        return {"success": True, "data": refunds}

    # ------------------------------------------------------------------ state changes

    def place_order(
        self,
        customer_id: str,
        product_ids: List[str],
        quantities: List[int],
        coupon_code: Optional[str] = None,
        use_store_credit: bool = False,
        shipping_address: Optional[str] = None,
    ) -> dict:
        """
        Place and pay for an order.

        Args:
            customer_id (str): The buying customer.
            product_ids (List[str]): Products to buy.
            quantities (List[int]): Quantity for each product, same order as product_ids.
            coupon_code (Optional[str]): Coupon to apply.
            use_store_credit (bool): Pay with the customer's store credit first.
            shipping_address (Optional[str]): Delivery address; defaults to the customer's default address.

        Returns:
            dict: {"success": True, "message": str, "data": OrderInfo} or {"success": False, "error": str}.

        Constraints:
            - Products must be active and in stock for the full quantity.
            - Coupon rules: active, unexpired, minimum subtotal met, once per customer.
            - Shipping: free for gold customers or discounted subtotal >= 50.00, else 5.99.
        """
        customer = _get(self.customers, customer_id)
        if not customer:
            return {"success": False, "error": f"Customer {customer_id} not found"}
        lines, error = self._parse_lines(product_ids, quantities)
        if error:
            return {"success": False, "error": error}
        for pid, qty in lines.items():
            product = _get(self.products, pid)
            if not product or not product["active"]:
                return {"success": False, "error": f"Product {pid} is not available"}
            if product["stock"] < qty:
                return {"success": False, "error": f"Only {product['stock']} of {product['name']} in stock"}
        address = _text(shipping_address) or customer["default_address"]

        subtotal = round(sum(self.products[pid]["price"] * qty for pid, qty in lines.items()), 2)
        discount = 0.0
        if coupon_code:
            error = self._coupon_error(coupon_code, customer_id, subtotal)
            if error:
                return {"success": False, "error": error}
            discount = round(subtotal * self.coupons[coupon_code]["discount_percent"] / 100.0, 2)
        after_discount = round(subtotal - discount, 2)
        free_shipping = customer["loyalty_tier"] == "gold" or after_discount >= FREE_SHIPPING_THRESHOLD
        shipping_fee = 0.0 if free_shipping else STANDARD_SHIPPING_FEE
        total = round(after_discount + shipping_fee, 2)
        credit_used = round(min(customer["store_credit"], total), 2) if use_store_credit else 0.0

        order_id = self._next_id("O", self.orders, start=1001, width=4)
        order: OrderInfo = {
            "order_id": order_id,
            "customer_id": customer_id,
            "items": [
                {"product_id": pid, "quantity": qty, "unit_price": self.products[pid]["price"], "refunded_quantity": 0}
                for pid, qty in lines.items()
            ],
            "status": "paid",
            "shipping_address": address,
            "subtotal": subtotal,
            "discount": discount,
            "shipping_fee": shipping_fee,
            "total": total,
            "amount_paid_card": round(total - credit_used, 2),
            "amount_paid_credit": credit_used,
            "coupon_code": coupon_code or None,
            "placed_date": self._today().isoformat(),
            "delivered_date": None,
            "refunded_total": 0.0,
        }
        for pid, qty in lines.items():
            self.products[pid]["stock"] -= qty
        if coupon_code:
            self.coupons[coupon_code]["used_by"].append(customer_id)
        if credit_used:
            self._record_credit(customer_id, -credit_used, f"Payment for order {order_id}")
        self.orders[order_id] = order
        return {"success": True, "message": f"Order {order_id} placed, total {total:.2f}", "data": copy.deepcopy(order)}

    def cancel_order(self, order_id: str, reason: str) -> dict:
        """
        Cancel an order that has not shipped yet.

        Args:
            order_id (str): The order's id.
            reason (str): Why the order is cancelled (non-empty).

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only "paid" (unshipped) orders.
            - Items are restocked, store credit used is returned, the coupon is released,
              and the card payment is refunded in full.
        """
        order = _get(self.orders, order_id)
        if not order:
            return {"success": False, "error": f"Order {order_id} not found"}
        if order["status"] != "paid":
            return {"success": False, "error": f"Order is {order['status']}; only unshipped orders can be cancelled"}
        if not _text(reason):
            return {"success": False, "error": "A cancellation reason is required"}
        for item in order["items"]:
            if item["product_id"] in self.products:
                self.products[item["product_id"]]["stock"] += item["quantity"]
        if order["amount_paid_credit"]:
            self._record_credit(order["customer_id"], order["amount_paid_credit"], f"Cancelled order {order_id}")
        coupon = self.coupons.get(order.get("coupon_code") or "")
        if coupon and order["customer_id"] in coupon["used_by"]:
            coupon["used_by"].remove(order["customer_id"])
        order["status"] = "cancelled"
        order["refunded_total"] = order["total"]
        return {
            "success": True,
            "message": f"Order {order_id} cancelled ({_text(reason)}); {order['amount_paid_card']:.2f} refunded to card",
        }

    def update_shipping_address(self, order_id: str, address: str) -> dict:
        """
        Change the delivery address of an unshipped order.

        Args:
            order_id (str): The order's id.
            address (str): New full address (non-empty).

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only "paid" (unshipped) orders.
        """
        order = _get(self.orders, order_id)
        if not order:
            return {"success": False, "error": f"Order {order_id} not found"}
        if order["status"] != "paid":
            return {"success": False, "error": f"Order is {order['status']}; the address can no longer change"}
        if not _text(address):
            return {"success": False, "error": "Address must not be empty"}
        order["shipping_address"] = _text(address)
        return {"success": True, "message": f"Order {order_id} will ship to {order['shipping_address']}"}

    def update_default_address(self, customer_id: str, address: str) -> dict:
        """
        Change a customer's default shipping address (existing orders are not affected).

        Args:
            customer_id (str): The customer's id.
            address (str): New full address (non-empty).

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.
        """
        customer = _get(self.customers, customer_id)
        if not customer:
            return {"success": False, "error": f"Customer {customer_id} not found"}
        if not _text(address):
            return {"success": False, "error": "Address must not be empty"}
        customer["default_address"] = _text(address)
        return {"success": True, "message": "Default address updated"}

    def mark_delivered(self, order_id: str) -> dict:
        """
        Record carrier confirmation that a shipped order was delivered today.

        Args:
            order_id (str): The order's id.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only "shipped" orders; the delivery date starts the 30-day return window.
        """
        order = _get(self.orders, order_id)
        if not order:
            return {"success": False, "error": f"Order {order_id} not found"}
        if order["status"] != "shipped":
            return {"success": False, "error": f"Order is {order['status']}, not shipped"}
        order["status"] = "delivered"
        order["delivered_date"] = self._today().isoformat()
        return {"success": True, "message": f"Order {order_id} delivered on {order['delivered_date']}"}

    def request_return(self, order_id: str, product_ids: List[str], quantities: List[int], reason: str) -> dict:
        """
        Open a return/refund request for items of a delivered order.

        Args:
            order_id (str): The order's id.
            product_ids (List[str]): Products being returned.
            quantities (List[int]): Quantity of each product, same order as product_ids.
            reason (str): Customer's reason (non-empty).

        Returns:
            dict: {"success": True, "message": str, "data": RefundInfo} or {"success": False, "error": str}.

        Constraints:
            - Order delivered within the last 30 days.
            - Products must be returnable and on the order; quantities cannot exceed what was bought
              minus what is already refunded or awaiting a decision.
            - Amount = price x quantity less the order's proportional coupon discount.
        """
        order = _get(self.orders, order_id)
        if not order:
            return {"success": False, "error": f"Order {order_id} not found"}
        if order["status"] != "delivered":
            return {"success": False, "error": f"Order is {order['status']}; only delivered orders can be returned"}
        try:
            delivered = datetime.strptime(order.get("delivered_date") or "", "%Y-%m-%d").date()
        except ValueError:
            return {"success": False, "error": "Order has no delivery date"}
        if self._today() - delivered > timedelta(days=RETURN_WINDOW_DAYS):
            return {"success": False, "error": f"The {RETURN_WINDOW_DAYS}-day return window closed on {(delivered + timedelta(days=RETURN_WINDOW_DAYS)).isoformat()}"}
        if not _text(reason):
            return {"success": False, "error": "A return reason is required"}
        lines, error = self._parse_lines(product_ids, quantities)
        if error:
            return {"success": False, "error": error}

        pending: Dict[str, int] = {}
        for refund in self.refunds.values():
            if refund["order_id"] == order_id and refund["status"] == "requested":
                for line in refund["items"]:
                    pending[line["product_id"]] = pending.get(line["product_id"], 0) + line["quantity"]
        gross = 0.0
        for pid, qty in lines.items():
            item = next((i for i in order["items"] if i["product_id"] == pid), None)
            if not item:
                return {"success": False, "error": f"Product {pid} is not on order {order_id}"}
            if not self.products.get(pid, {}).get("returnable", False):
                return {"success": False, "error": f"Product {pid} is not returnable"}
            left = item["quantity"] - item["refunded_quantity"] - pending.get(pid, 0)
            if qty > left:
                return {"success": False, "error": f"Only {left} of {pid} can still be returned"}
            gross += item["unit_price"] * qty
        share = 1 - (order["discount"] / order["subtotal"]) if order["subtotal"] else 1
        amount = round(gross * share, 2)
        amount = min(amount, round(order["total"] - order["refunded_total"], 2))

        refund_id = self._next_id("R", self.refunds)
        refund: RefundInfo = {
            "refund_id": refund_id,
            "order_id": order_id,
            "items": [{"product_id": pid, "quantity": qty} for pid, qty in lines.items()],
            "amount": amount,
            "reason": _text(reason),
            "status": "requested",
            "method": None,
            "created_date": self._today().isoformat(),
        }
        self.refunds[refund_id] = refund
        return {"success": True, "message": f"Return {refund_id} opened for {amount:.2f}", "data": copy.deepcopy(refund)}

    def process_refund(
        self,
        refund_id: str,
        approve: bool,
        method: Literal["original_payment", "store_credit"] = "original_payment",
    ) -> dict:
        """
        Approve or reject a requested refund.

        Args:
            refund_id (str): The refund request's id.
            approve (bool): True to approve, False to reject.
            method (Literal["original_payment", "store_credit"]): How an approved refund is paid out.

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.

        Constraints:
            - Only "requested" refunds can be decided.
            - Approval restocks the items, marks them refunded on the order and pays the amount
              back to the original payment or as store credit.
        """
        refund = _get(self.refunds, refund_id)
        if not refund:
            return {"success": False, "error": f"Refund {refund_id} not found"}
        if refund["status"] != "requested":
            return {"success": False, "error": f"Refund is already {refund['status']}"}
        if not approve:
            refund["status"] = "rejected"
            return {"success": True, "message": f"Refund {refund_id} rejected"}
        if method not in ("original_payment", "store_credit"):
            return {"success": False, "error": f"Unknown refund method {method}"}
        order = self.orders.get(refund["order_id"])
        if not order:
            return {"success": False, "error": "The refunded order no longer exists"}
        if order["refunded_total"] + refund["amount"] > order["total"] + 1e-9:
            return {"success": False, "error": "Refund would exceed the amount paid for the order"}
        for line in refund["items"]:
            item = next((i for i in order["items"] if i["product_id"] == line["product_id"]), None)
            if item:
                item["refunded_quantity"] += line["quantity"]
            if line["product_id"] in self.products:
                self.products[line["product_id"]]["stock"] += line["quantity"]
        order["refunded_total"] = round(order["refunded_total"] + refund["amount"], 2)
        refund["status"] = "approved"
        refund["method"] = method
        if method == "store_credit":
            self._record_credit(order["customer_id"], refund["amount"], f"Refund {refund_id}")
        return {"success": True, "message": f"Refund {refund_id} approved: {refund['amount']:.2f} via {method}"}

    def issue_store_credit(self, customer_id: str, amount: float, reason: str) -> dict:
        """
        Grant goodwill store credit to a customer.

        Args:
            customer_id (str): The customer's id.
            amount (float): Credit to grant; positive and at most 50.00.
            reason (str): Why the credit is granted (non-empty, kept in the ledger).

        Returns:
            dict: {"success": True, "message": str} or {"success": False, "error": str}.
        """
        customer = _get(self.customers, customer_id)
        if not customer:
            return {"success": False, "error": f"Customer {customer_id} not found"}
        try:
            amount = round(float(amount), 2)
        except (TypeError, ValueError):
            return {"success": False, "error": "Amount must be a number"}
        if amount <= 0 or amount > MAX_GOODWILL_CREDIT:
            return {"success": False, "error": f"Goodwill credit must be between 0.01 and {MAX_GOODWILL_CREDIT:.2f}"}
        if not _text(reason):
            return {"success": False, "error": "A reason is required"}
        self._record_credit(customer_id, amount, _text(reason))
        return {"success": True, "message": f"{amount:.2f} store credit granted; balance {customer['store_credit']:.2f}"}
