"""The support console of a studio (one `purser serve` for two apps), in a real browser: Selenium drives two
Chromium sessions (headless). Exits 1 on the first check that fails.

  the admin sees the app switcher with both apps; switching makes the unbound queue the other app's (each app's
  unbound transaction appears in its own queue only); the search from the first app finds the second app's
  transaction, names its app and its link opens it there; the admin adds an operator on the Operators page, who has
  a role in the first app only: their switcher lists the first app alone, and the second app's switcher link, its
  pages (the app cookie set by hand) and a form posted by hand are all 404, and nothing changes.
"""
import argparse
import os
import urllib.error
import urllib.parse
import urllib.request

from drive_console import arrived, check  # noqa: E402 (same directory)
from drive_roles import open_browser, sign_in  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


def status_of(browser, url: str, form: dict | None = None, app: str | None = None) -> int:
    """GETs `url` (POSTs `form` with the page's CSRF token) with the browser's cookies, the app cookie set to `app`;
    the HTTP status, redirects not followed."""
    cookies = {c["name"]: c["value"] for c in browser.get_cookies()}
    if app:
        cookies["purser_console_app"] = app
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    data = None
    if form is not None:
        token = browser.find_element(By.CSS_SELECTOR, 'input[name="csrf"]').get_attribute("value")
        data = urllib.parse.urlencode({**form, "csrf": token}).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003
            return None

    request = urllib.request.Request(url, method="POST" if form is not None else "GET", data=data, headers=headers)
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--admin", required=True, help="seeded: an admin in every app")
    parser.add_argument("--password", required=True)
    parser.add_argument("--apps", required=True, help="the two bundle ids, comma-separated, the first app's first")
    parser.add_argument("--transactions", required=True, help="an unbound transaction of each app, in that order")
    parser.add_argument("--screenshots", required=True)
    args = parser.parse_args()
    base = args.base
    (first, second), (ours, theirs) = args.apps.split(","), args.transactions.split(",")

    admin, other = open_browser(), open_browser()
    try:
        sign_in(admin, base, args.admin, args.password)
        apps = [a.text for a in admin.find_elements(By.CSS_SELECTOR, "#apps a")]
        check(apps == [first, second], f"the admin's switcher lists both apps ({apps})")
        admin.get(f"{base}/console/unbound")
        queue = admin.find_element(By.ID, "queue").text
        check(ours in queue and theirs not in queue, "the first app's queue has its own unbound transaction only")
        admin.find_element(By.LINK_TEXT, second).click()
        arrived(admin, "/console/dashboard")
        check(admin.find_element(By.CSS_SELECTOR, "#apps a.current").text == second, "the switcher marks the second")
        admin.get(f"{base}/console/unbound")
        queue = admin.find_element(By.ID, "queue").text
        check(theirs in queue and ours not in queue, "after switching, the queue is the second app's")
        admin.save_screenshot(os.path.join(args.screenshots, "studio.png"))

        # The search from the first app finds the second app's transaction and names the app.
        admin.find_element(By.LINK_TEXT, first).click()
        arrived(admin, "/console/dashboard")
        admin.get(f"{base}/console/search?q={theirs}")
        results = admin.find_element(By.ID, "results").text
        check(theirs in results and second in results, f"the search names the second app ({results})")
        admin.find_element(By.LINK_TEXT, theirs).click()
        arrived(admin, f"/console/transactions/{theirs}")
        check(admin.find_element(By.ID, "transaction-id").text == theirs
              and admin.find_element(By.CSS_SELECTOR, "#apps a.current").text == second,
              "its link opens the transaction in the second app")

        # An operator added in the first app has a role there only.
        admin.find_element(By.LINK_TEXT, first).click()
        arrived(admin, "/console/dashboard")
        admin.get(f"{base}/console/operators")
        form = admin.find_element(By.ID, "add-operator")
        form.find_element(By.NAME, "name").send_keys("kai")
        form.find_element(By.NAME, "password").send_keys(args.password)
        form.find_element(By.TAG_NAME, "button").click()
        check("Saved" in admin.find_element(By.ID, "notice").text, "the admin adds kai")
        roles = admin.find_element(By.CSS_SELECTOR, "#operator-kai .role").text
        check(f"{first}: support" in roles and f"{second}: —" in roles, f"kai is support in the first app ({roles})")

        sign_in(other, base, "kai", args.password)
        apps = [a.text for a in other.find_elements(By.CSS_SELECTOR, "#apps a")]
        check(apps == [first], f"kai's switcher lists the first app alone ({apps})")
        check(second not in other.page_source, "and names the second nowhere")
        check(status_of(other, f"{base}/console/apps/{second}") == 404, "the second app's switcher link is 404")
        for page in ["dashboard", "unbound", f"transactions/{theirs}"]:
            check(status_of(other, f"{base}/console/{page}", app=second) == 404, f"its {page} page is 404")
        other.get(f"{base}/console/unbound")
        status = status_of(other, f"{base}/console/transactions/{theirs}/grant", {"user": "kai", "reason": "by hand"},
                           app=second)
        check(status == 404, f"its make-good form posted by hand is 404 ({status})")
        admin.get(f"{base}/console/apps/{second}?back=/console/transactions/{theirs}")
        check(admin.find_element(By.ID, "ledger").text == "unbound", "and the transaction is still unbound")
    finally:
        admin.quit()
        other.quit()


if __name__ == "__main__":
    main()
