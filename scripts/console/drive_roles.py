"""Roles in the support console, in a real browser: Selenium drives two Chromium sessions (headless) against a
running `purser serve` whose configuration seeds an admin, a support operator and a viewer. Exits 1 on the first
check that fails.

  the viewer sees no make-good, bind or goodwill forms (the admin does, on the same pages), and the server refuses
  them posted by hand with the viewer's session and CSRF token (403, nothing changes); a support operator's
  goodwill within the limit is credited, above it waits on the approvals page, the requester cannot approve it, the
  admin approves it and the credit's audit record names both; the admin disables the support operator, whose very
  next request goes to sign-in.
"""
import argparse
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

from drive_console import arrived, check  # noqa: E402 (same directory)
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def open_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,900",
                 "--lang=en-US"]:
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    browser.implicitly_wait(2)
    return browser


def submit_and_wait(browser, button) -> None:
    """Clicks a form's button and waits until the page it answers with replaced this one: a notice looked up sooner
    may be the old page's (as after a second change on the operators page), gone a moment later."""
    page = browser.find_element(By.TAG_NAME, "html")
    button.click()
    WebDriverWait(browser, 10).until(expected_conditions.staleness_of(page))


def sign_in(browser, base: str, name: str, password: str) -> None:
    browser.get(f"{base}/console/lang/en?back=/console/sign-in")
    browser.find_element(By.NAME, "operator").send_keys(name)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "#sign-in button").click()
    arrived(browser, "/console/dashboard")
    check(browser.current_url.endswith("/console/dashboard")
          and name in browser.find_element(By.ID, "sign-out").text, f"{name} signs in")


def post_by_hand(browser, url: str, form: dict) -> int:
    """Posts `form` with the browser's session cookie and the CSRF token of its current page; the HTTP status."""
    token = re.search(r'name="csrf" value="([^"]+)"', browser.page_source).group(1)
    cookie = browser.get_cookie("purser_console")
    request = urllib.request.Request(
        url, method="POST", data=urllib.parse.urlencode({**form, "csrf": token}).encode(),
        headers={"Cookie": f"purser_console={cookie['value']}", "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def goodwill(browser, base: str, user: str, amount: int, reason: str) -> str:
    """Gives (or asks for) a goodwill credit on `user`'s page; the notice it answers with."""
    browser.get(f"{base}/console/users?id={user}")
    form = browser.find_element(By.ID, "goodwill")
    form.find_element(By.NAME, "currency").send_keys("gold")
    form.find_element(By.NAME, "amount").send_keys(str(amount))
    form.find_element(By.NAME, "reason").send_keys(reason)
    form.find_element(By.TAG_NAME, "button").click()
    arrived(browser, "/console/users")
    return browser.find_element(By.ID, "notice").text


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--admin", required=True)
    parser.add_argument("--support", required=True)
    parser.add_argument("--viewer", required=True)
    parser.add_argument("--password", required=True, help="the three operators'")
    parser.add_argument("--unbound-transaction-id", required=True)
    parser.add_argument("--screenshots", required=True)
    args = parser.parse_args()
    base = args.base

    admin, other = open_browser(), open_browser()
    try:
        # The admin sees the forms that change something; the viewer, on the same pages, does not.
        sign_in(admin, base, args.admin, args.password)
        admin.get(f"{base}/console/transactions/{args.unbound_transaction_id}")
        check(admin.find_elements(By.ID, "make-good"), "the admin sees make good on an unbound transaction")
        admin.get(f"{base}/console/unbound")
        check(admin.find_elements(By.CSS_SELECTOR, "form.bind"), "and bind in the unbound queue")

        sign_in(other, base, args.viewer, args.password)
        check(other.find_element(By.ID, "role").text == "viewer", "the viewer's role is shown")
        other.get(f"{base}/console/unbound")
        check(args.unbound_transaction_id in other.find_element(By.ID, "queue").text
              and not other.find_elements(By.CSS_SELECTOR, "form.bind"), "the viewer sees the queue, no bind form")
        other.get(f"{base}/console/users?id=gina")
        check(not other.find_elements(By.ID, "goodwill"), "no goodwill form on a user's page")
        check(not other.find_elements(By.LINK_TEXT, "Operators") and not other.find_elements(By.LINK_TEXT, "Approvals"),
              "no operators or approvals in the viewer's menu")
        other.get(f"{base}/console/transactions/{args.unbound_transaction_id}")
        check(not other.find_elements(By.ID, "make-good"), "no make-good form on the unbound transaction")
        other.save_screenshot(os.path.join(args.screenshots, "viewer.png"))
        status = post_by_hand(other, f"{base}/console/transactions/{args.unbound_transaction_id}/grant",
                              {"user": "mallory", "reason": "by hand"})
        check(status == 403, f"make good posted by hand with the viewer's session is refused ({status})")
        status = post_by_hand(other, f"{base}/console/users/goodwill",
                              {"id": "mallory", "key": "8c4c0a9e-5b83-4f2e-9a0b-6d1f3f3f1a11", "currency": "gold",
                               "amount": "5", "reason": "by hand"})
        check(status == 403, f"goodwill posted by hand with the viewer's session is refused ({status})")
        status = post_by_hand(other, f"{base}/console/operators", {"name": "eve", "password": "x" * 12, "role": "admin"})
        check(status == 403, f"adding an operator by hand is refused ({status})")
        other.get(f"{base}/console/transactions/{args.unbound_transaction_id}")
        check(other.find_element(By.ID, "ledger").text == "unbound", "and the transaction is still unbound")
        other.get(f"{base}/console/users?id=mallory")
        check(not other.find_elements(By.CSS_SELECTOR, "#history tr"), "and mallory's wallet has no entry")
        other.find_element(By.ID, "sign-out").click()
        arrived(other, "/console/sign-in")

        # A support operator: within the limit at once, above it a request that a second operator approves.
        sign_in(other, base, args.support, args.password)
        notice = goodwill(other, base, "gina", 50, "ticket 11: lost a chest")
        check("Credited" in notice, f"support's goodwill within the limit is credited ({notice})")
        notice = goodwill(other, base, "gina", 500, "ticket 12: lost a season's progress")
        check("waits for a second operator" in notice, f"above the limit it waits ({notice})")
        other.get(f"{base}/console/approvals")
        rows = other.find_elements(By.CSS_SELECTOR, "#requests tr")
        check(len(rows) == 1 and "500" in rows[0].text and not rows[0].find_elements(By.CSS_SELECTOR, "button.approve"),
              "the requester sees the request and cannot approve it")
        status = post_by_hand(other, f"{base}/console/approvals/{rows[0].get_attribute('id')[8:]}/decide",
                              {"decision": "approve"})
        check(status == 403, f"nor by hand ({status})")
        other.get(f"{base}/console/users?id=gina")
        check("gold\n50" in other.find_element(By.ID, "balances").text.replace(" ", "\n"),
              "gina has the 50 only, so far")

        admin.get(f"{base}/console/approvals")
        admin.save_screenshot(os.path.join(args.screenshots, "approvals.png"))
        admin.find_element(By.CSS_SELECTOR, "#requests button.approve").click()
        check("Approved and credited" in admin.find_element(By.ID, "notice").text, "the admin approves it")
        admin.get(f"{base}/console/users?id=gina")
        history = admin.find_element(By.ID, "history").text
        check(f"support by {args.support}, approved by {args.admin}" in history,
              "the credit's audit record names both operators")
        check("550" in admin.find_element(By.ID, "balances").text, "gina has 550 gold")

        # Disabling the support operator signs them out: their very next request goes to sign-in.
        other.get(f"{base}/console/dashboard")
        check(other.current_url.endswith("/console/dashboard"), "the support operator is still signed in")
        admin.get(f"{base}/console/operators")
        admin.save_screenshot(os.path.join(args.screenshots, "operators.png"))
        submit_and_wait(admin, admin.find_element(By.CSS_SELECTOR, f"#operator-{args.support} button.disable"))
        # The answer is the same page, with a notice.
        check("Saved" in admin.find_element(By.ID, "notice").text, "the change is saved")
        check("disabled" in admin.find_element(By.CSS_SELECTOR, f"#operator-{args.support} .status").text,
              "the admin disables the support operator")
        other.get(f"{base}/console/dashboard")
        check(other.current_url.endswith("/console/sign-in"), "whose next request goes to sign-in")
        other.find_element(By.NAME, "operator").send_keys(args.support)
        other.find_element(By.NAME, "password").send_keys(args.password)
        other.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        check(other.find_element(By.ID, "error").is_displayed(), "and who cannot sign in again")
        # The page still shows the disable's notice: wait for the answer's page before reading it.
        submit_and_wait(admin, admin.find_element(By.CSS_SELECTOR, f"#operator-{args.support} button.enable"))
        check("Saved" in admin.find_element(By.ID, "notice").text, "and enables them again")
        sign_in(admin, base, args.admin, args.password)  # the admin's own session still holds
        admin.find_element(By.ID, "sign-out").click()
    finally:
        admin.quit()
        other.quit()


if __name__ == "__main__":
    main()
