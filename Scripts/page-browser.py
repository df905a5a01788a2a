#!/usr/bin/env python3
"""The browser in the archive pages' tests: Debian's Chromium, driven by Selenium through
chromedriver, with axe-core (axe-selenium-python) for accessibility. Runs in the venv
`make browser` makes; a test writes the steps of one browser session as JSON to a file and
reads the results as JSON on stdout. It only acts and observes: the tests decide what is right.

    page-browser.py STEPS.json

STEPS.json is a list; each step is an object with one of these keys:

    {"open": URL, "width": 1024, "height": 900}
        resize the window, load URL, wait for the load event; gives
        {"url", "domContentLoaded": ms from navigation start, "title"}
    {"script": JS}            run JS (a function body; `return` a value); gives its value
    {"click": CSS}            click the first element CSS matches (scrolled into view)
    {"type": CSS, "text": T}  replace the element's text with T, typed
    {"wait": JS, "timeout": S}
        run JS (a function body) until it returns a truthy value or S seconds pass (default
        20), checking every 50 ms inside the page; gives {"ok": bool, "value": the last
        value}, so a test reports what it saw when it gave up.
    {"dark": true}            the page as a system in dark mode shows it (prefers-color-scheme;
                              false: light again)
    {"tabTo": CSS, "max": N}  press Tab until the focused element matches CSS, at most N (20)
                              times; gives how many presses it took, or null
    {"press": KEY}            press KEY (a name from Selenium's Keys: ENTER, SPACE, TAB...)
                              on the focused element
    {"axe": true}             axe-core on the page; gives the violations as
                              [{"id", "impact", "help", "targets": [...]}]
    {"screenshot": PATH, "top": false}
                              a PNG of the window (scrolled to the top first with "top")
    {"log": true}             what the browser logged since the last "log" step:
                              {"console": [{"level", "message"}], "requests": [URL...]}
                              (requests: every URL the pages asked for, from the network log;
                              not those of the browser's own chrome:// pages)

Output: {"results": [one per step], "error": null or why a step failed (the rest not run)}.
"""
import json
import os
import shutil
import sys
import tempfile

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("no chromium on PATH (make browser installs Debian's chromium)")


def start(profile):
    options = Options()
    options.binary_location = os.environ.get("PODCAST_CHROMIUM") or chromium()
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in a container: Chromium's sandbox needs user namespaces
        "--disable-gpu",
        "--mute-audio",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--password-store=basic",
        "--user-data-dir=" + profile,
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver_path = os.environ.get("PODCAST_CHROMEDRIVER") or shutil.which("chromedriver")
    service = Service(driver_path) if driver_path else Service()
    return webdriver.Chrome(options=options, service=service)


def wrap(body):
    return body if "return" in body else "return (" + body + ");"


WAIT = """
const [body, timeout, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const test = new Function(body);
const deadline = performance.now() + timeout * 1000;
let value;
function check() {
  try { value = test(); } catch (error) { value = "error: " + error; }
  if (value && !(typeof value === "string" && value.startsWith("error: "))) {
    done({ok: true, value: value});
  } else if (performance.now() > deadline) {
    done({ok: false, value: value === undefined ? null : value});
  } else {
    setTimeout(check, 50);
  }
}
check();
"""


def run(driver, step):
    if "open" in step:
        driver.set_window_size(step.get("width", 1024), step.get("height", 900))
        driver.get(step["open"])
        timing = driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "return n ? n.domContentLoadedEventEnd : null;")
        return {"url": driver.current_url, "domContentLoaded": timing, "title": driver.title}
    if "script" in step:
        return driver.execute_script(wrap(step["script"]))
    if "click" in step:
        element = driver.find_element(By.CSS_SELECTOR, step["click"])
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()
        return True
    if "type" in step:
        element = driver.find_element(By.CSS_SELECTOR, step["type"])
        # Select all and delete, as a user would: clear() fires no input event.
        element.send_keys(Keys.CONTROL, "a")
        element.send_keys(Keys.BACKSPACE)
        if step["text"]:
            element.send_keys(step["text"])
        return True
    if "dark" in step:
        scheme = "dark" if step["dark"] else "light"
        driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        return driver.execute_script(
            "return matchMedia('(prefers-color-scheme: dark)').matches")
    if "tabTo" in step:
        for presses in range(1, step.get("max", 20) + 1):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            if driver.execute_script(
                    "return !!document.activeElement && document.activeElement.matches(arguments[0])",
                    step["tabTo"]):
                return presses
        return None
    if "press" in step:
        ActionChains(driver).send_keys(getattr(Keys, step["press"])).perform()
        return True
    if "wait" in step:
        timeout = step.get("timeout", 20)
        driver.set_script_timeout(timeout + 10)
        return driver.execute_async_script(WAIT, wrap(step["wait"]), timeout)
    if "axe" in step:
        axe = Axe(driver)
        axe.inject()
        results = axe.run()
        return [
            {
                "id": violation["id"],
                "impact": violation.get("impact"),
                "help": violation.get("help"),
                "targets": [node.get("target") for node in violation.get("nodes", [])][:5],
            }
            for violation in results.get("violations", [])
        ]
    if "screenshot" in step:
        if step.get("top"):
            driver.execute_script("window.scrollTo(0, 0);")
        return driver.save_screenshot(step["screenshot"])
    if "log" in step:
        console = [
            {"level": entry.get("level"), "message": entry.get("message")}
            for entry in driver.get_log("browser")
        ]
        requests = []
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                params = message["params"]
                # The browser's own pages (a new-tab page at start-up) are not the test's.
                if params.get("documentURL", "").startswith("chrome"):
                    continue
                requests.append(params["request"]["url"])
        return {"console": console, "requests": requests}
    raise ValueError("unknown step: " + json.dumps(step))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as file:
        steps = json.load(file)
    profile = tempfile.mkdtemp(prefix="podcast-browser-")
    results, error = [], None
    driver = None
    try:
        driver = start(profile)
        for step in steps:
            results.append(run(driver, step))
    except (WebDriverException, ValueError, OSError) as failure:
        error = "%s: %s" % (type(failure).__name__, str(failure).strip().splitlines()[0:3])
    finally:
        if driver is not None:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    json.dump({"results": results, "error": error}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
