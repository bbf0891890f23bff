"""MkDocs hooks (mkdocs.yml ``hooks:``): two differences between GitHub's Markdown and MkDocs'.

* A table cell's code span on GitHub needs its pipes escaped (``\\|``); Python-Markdown
  keeps a code span's pipes inside the cell and would show the backslash. The pages
  stay right for GitHub, and the site drops the backslash.
* The docstrings use Sphinx roles (``:func:`load```); mkdocstrings shows them as
  written, so the role is dropped and the name kept as code.
"""

from __future__ import annotations

import re
from typing import Any

_CODE_SPAN = re.compile(r"`[^`\n]*`")
_ROLE = re.compile(r":(?:mod|func|class|meth|attr|data|exc|obj):(?=<code>)")


def _unescape_pipes(span: re.Match[str]) -> str:
    return span.group(0).replace("\\|", "|")


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Table rows' code spans with ``|`` where the page has ``\\|``."""
    return "\n".join(_CODE_SPAN.sub(_unescape_pipes, line) if line.startswith("|") else line
                     for line in markdown.split("\n"))


def on_page_content(html: str, **_: Any) -> str:
    """``:func:<code>load</code>`` (a Sphinx role as mkdocstrings renders it) becomes the code alone."""
    return _ROLE.sub("", html)
