"""Headless Chromium from the system's packages, driven by Selenium (never a browser download).

The machine running the tests may have no network: Chromium is started with the
flags that stop it from reaching for one, and a fresh profile directory.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1400,900",
)


def chromium_path() -> str | None:
    return next((p for p in CHROMIUM if Path(p).exists()), None)


def browser() -> Iterator[object]:
    """A Selenium Chrome driver on the system Chromium, or skip with the reason."""
    binary = chromium_path()
    if binary is None or not Path(CHROMEDRIVER).exists():
        pytest.skip("Chromium and chromedriver not installed (apt-get install chromium chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium not installed (pip install -e '.[test]')")
    profile = tempfile.mkdtemp(prefix="studbook-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
