"""The support console in a real browser: Selenium drives Debian's Chromium (headless) against a running
`purser serve` as a support operator would, and writes screenshots. Exits 1 on the first check that fails.

  sign in (a wrong password first) -> search Apple's order id -> the purchase's timeline (unbound, and why) ->
  make good with a reason holding markup -> the audit record names the operator and shows the reason as text;
  a form posted without its CSRF token is refused; a page opened without a session goes to sign-in; the language
  switch speaks Simplified Chinese; binding from the unbound queue completes the user's order; a user's page lists a
  refused purchase; with Apple stopped, a transaction page answers within 5 s from the ledger.
"""
import time
import argparse
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

os.environ.setdefault("SE_AVOID_STATS", "true")  # Selenium Manager must not reach the internet
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def check(condition: bool, message: str) -> None:
    if not condition:
        print(f"drive_console: FAIL {message}", file=sys.stderr)
        sys.exit(1)
    print(f"drive_console: ok   {message}")


def arrived(browser, path: str) -> None:
    """Waits (up to 10 s) until the browser's page is `path`: a click returns before the navigation it starts."""
    try:
        WebDriverWait(browser, 10).until(expected_conditions.url_contains(path))
    except Exception:  # noqa: BLE001 (the check that follows reports it)
        pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--operator", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--apple-order-id", required=True)
    parser.add_argument("--transaction-id", required=True)
    parser.add_argument("--queued-transaction-id", required=True, help="unbound, with dave's order made before it")
    parser.add_argument("--refused-transaction-id", required=True, help="frank's, Apple signed the wrong type")
    parser.add_argument("--apple-down-base", required=True, help="a server whose App Store does not answer")
    parser.add_argument("--apple-down-transaction-id", required=True, help="credited there before Apple stopped")
    parser.add_argument("--screenshots", required=True)
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,900",
                 "--lang=en-US"]:
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    browser.implicitly_wait(5)
    try:
        browser.get(f"{args.base}/console/transactions/{args.transaction_id}")
        check(browser.current_url.endswith("/console/sign-in"), "a page opened without a session goes to sign-in")

        browser.find_element(By.NAME, "operator").send_keys(args.operator)
        browser.find_element(By.NAME, "password").send_keys("not the password")
        browser.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        check("/console/sign-in" in browser.current_url and browser.find_element(By.ID, "error").is_displayed(),
              "a wrong password is refused with a message")
        browser.save_screenshot(os.path.join(args.screenshots, "sign-in.png"))

        browser.find_element(By.NAME, "operator").send_keys(args.operator)
        browser.find_element(By.NAME, "password").send_keys(args.password)
        browser.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        arrived(browser, "/console/dashboard")
        check(browser.current_url.endswith("/console/dashboard"), "the operator signs in, to the dashboard")
        check(browser.find_element(By.ID, "unbound-count").text.startswith("2 "), "the dashboard counts 2 unbound")
        check(int(browser.find_element(By.ID, "dead-count").text) >= 1, "and the dead webhook events")
        for chart in ["chart-unbound-age", "chart-hourly", "chart-decisions", "chart-queues"]:
            drawn = browser.find_element(By.ID, chart)
            check(drawn.is_displayed() and drawn.size["width"] > 300, f"the dashboard draws {chart} as a picture")
        check(browser.find_elements(By.CSS_SELECTOR, "#chart-hourly rect title"), "the hourly chart has bars")
        check(browser.find_elements(By.CSS_SELECTOR, "#chart-decisions rect title"), "the decisions chart has bars")
        check(browser.find_elements(By.CSS_SELECTOR, "#chart-queues circle title"),
              "the queues chart has the sampler's points (every 0.5 s here)")
        browser.set_window_size(1100, 1700)  # the whole dashboard, its pictures included
        browser.save_screenshot(os.path.join(args.screenshots, "dashboard.png"))
        browser.set_window_size(1100, 900)

        browser.find_element(By.LINK_TEXT, "Webhooks").click()
        rows = browser.find_elements(By.CSS_SELECTOR, "#events tr")
        check(len(rows) >= 2 and "dead" in browser.find_element(By.ID, "events").text,
              "the webhooks page lists dead events")
        browser.save_screenshot(os.path.join(args.screenshots, "webhooks.png"))
        rows[1].find_element(By.TAG_NAME, "button").click()
        check("Replayed" in browser.find_element(By.ID, "notice").text, "a dead event is replayed (audited)")

        browser.find_element(By.LINK_TEXT, "Unbound").click()
        queue = browser.find_element(By.ID, "queue")
        check(args.queued_transaction_id in queue.text and args.transaction_id in queue.text,
              "the unbound queue lists both unbound transactions")
        row = [tr for tr in queue.find_elements(By.TAG_NAME, "tr") if args.queued_transaction_id in tr.text]
        bind = [form for form in row[0].find_elements(By.CSS_SELECTOR, "form.bind") if "dave" in form.text] if row else []
        check(len(bind) == 1, "dave's order, made before the charge, is offered as its owner")
        browser.save_screenshot(os.path.join(args.screenshots, "unbound.png"))
        bind[0].find_element(By.NAME, "reason").send_keys("ticket 8: dave's order, same product, 2 minutes before")
        bind[0].find_element(By.TAG_NAME, "button").click()
        arrived(browser, f"/console/transactions/{args.queued_transaction_id}")
        check(browser.find_element(By.ID, "owner").text == "dave", "bound to dave from the queue")
        browser.find_element(By.CSS_SELECTOR, "#owner a").click()
        arrived(browser, "/console/users")
        orders = browser.find_element(By.ID, "orders").text
        check(args.queued_transaction_id in orders and "delivered" in orders,
              "dave's page shows his order delivered by the bound transaction")

        browser.find_element(By.LINK_TEXT, "Search").click()
        box = browser.find_element(By.NAME, "q")
        box.send_keys("frank")
        browser.find_element(By.CSS_SELECTOR, "#search button").click()
        browser.find_element(By.ID, "user-link").click()
        arrived(browser, "/console/users")
        purchases = browser.find_element(By.ID, "purchases").text
        check(args.refused_transaction_id in purchases and "rejected" in purchases
              and "product_type_mismatch" in purchases, "frank's page lists his refused purchase, and why")
        check("created" in browser.find_element(By.ID, "orders").text, "and his order, still waiting")
        browser.save_screenshot(os.path.join(args.screenshots, "user.png"))

        browser.find_element(By.LINK_TEXT, "Search").click()

        box = browser.find_element(By.NAME, "q")
        box.send_keys(args.apple_order_id)
        browser.find_element(By.CSS_SELECTOR, "#search button").click()
        links = browser.find_elements(By.CSS_SELECTOR, "#results a")
        check([link.text for link in links] == [args.transaction_id],
              "searching Apple's order id lists its transaction")
        browser.save_screenshot(os.path.join(args.screenshots, "search.png"))
        links[0].click()

        check(browser.find_element(By.ID, "ledger").text == "unbound", "the timeline says the ledger holds it unbound")
        check("no order names its owner" in browser.find_element(By.ID, "why").text, "and why, in one sentence")

        # A form posted without its CSRF token, with the browser's own session: refused, nothing changes.
        cookie = browser.get_cookie("purser_console")
        request = urllib.request.Request(
            f"{args.base}/console/transactions/{args.transaction_id}/grant", method="POST",
            data=urllib.parse.urlencode({"user": "mallory", "reason": "csrf"}).encode(),
            headers={"Cookie": f"purser_console={cookie['value']}",
                     "Content-Type": "application/x-www-form-urlencoded"})
        try:
            urllib.request.urlopen(request, timeout=10)
            check(False, "a form without its CSRF token is refused")
        except urllib.error.HTTPError as error:
            check(error.code == 403, f"a form without its CSRF token is refused ({error.code})")

        reason = "<b>ticket 9</b> paid, got nothing"
        form = browser.find_element(By.ID, "make-good")
        form.find_element(By.NAME, "user").send_keys("carol")
        form.find_element(By.NAME, "reason").send_keys(reason)
        form.find_element(By.TAG_NAME, "button").click()
        check(browser.find_element(By.ID, "notice").is_displayed(), "make good is confirmed")
        check(browser.find_element(By.ID, "owner").text == "carol", "the transaction is carol's now")
        audit = browser.find_element(By.ID, "audit")
        check(f"support by {args.operator} for carol: {reason}" in audit.text,
              "the audit record names the operator and the reason")
        check(not audit.find_elements(By.TAG_NAME, "b"), "the reason's markup is shown as text, not rendered")
        browser.save_screenshot(os.path.join(args.screenshots, "timeline.png"))

        browser.find_element(By.LINK_TEXT, "简体中文").click()
        check("查询" in browser.page_source and 'lang="zh-Hans"' in browser.page_source,
              "the language switch speaks Simplified Chinese")
        browser.save_screenshot(os.path.join(args.screenshots, "timeline-zh.png"))
        browser.get(f"{args.base}/console/dashboard")
        check("每小时发放与撤回" in browser.page_source and browser.find_element(By.ID, "chart-hourly").is_displayed(),
              "the dashboard's pictures speak Simplified Chinese too")
        browser.set_window_size(1100, 1700)
        browser.save_screenshot(os.path.join(args.screenshots, "dashboard-zh.png"))
        browser.set_window_size(1100, 900)

        browser.find_element(By.ID, "sign-out").click()
        arrived(browser, "/console/sign-in")
        browser.get(f"{args.base}/console/search")
        check(browser.current_url.endswith("/console/sign-in"), "after signing out, pages go to sign-in again")

        # Another server, whose App Store is stopped: the ledger's record first, and fast.
        # Cookies ignore the port: the language chosen above would follow; this page is checked in English.
        browser.get(f"{args.apple_down_base}/console/lang/en?back=/console/sign-in")
        browser.find_element(By.NAME, "operator").send_keys(args.operator)
        browser.find_element(By.NAME, "password").send_keys(args.password)
        browser.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        arrived(browser, "/console/dashboard")
        started = time.monotonic()
        browser.get(f"{args.apple_down_base}/console/transactions/{args.apple_down_transaction_id}")
        seconds = time.monotonic() - started
        check(seconds < 5, f"with Apple stopped, the transaction page answers within 5 s ({seconds:.1f} s)")
        check(browser.find_element(By.ID, "ledger").text == "credited"
              and browser.find_element(By.ID, "owner").text == "nina", "with the ledger's record: credited to nina")
        check(browser.find_element(By.ID, "apple").text.startswith("Apple did not answer; below is the ledger's record"),
              "and says Apple did not answer")
        browser.save_screenshot(os.path.join(args.screenshots, "apple-down.png"))
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
