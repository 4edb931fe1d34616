"""Fixtures of the renderer tests."""
from __future__ import annotations

import pytest

from renderers import common


@pytest.fixture(autouse=True)
def parts_drawn_afresh():
    """Every test draws its boards' parts itself: a part an earlier test left in
    `renderers.common.KEPT_PARTS` would be pasted instead, unseen by a test that watches the
    drawing (tests/renderers/test_kept_pictures.py checks what pasting gives)."""
    common.KEPT_PARTS.clear()
