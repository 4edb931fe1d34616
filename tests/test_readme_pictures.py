"""The README shows a phone-sized turn of every game, made by docs/pictures.py from the real bot."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from PIL import Image

from games import REGISTRY

ROOT = Path(__file__).resolve().parents[1]


def pictures_script():
    spec = importlib.util.spec_from_file_location("pictures", ROOT / "docs" / "pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_photographs_every_game_and_the_readme_shows_each_picture_with_a_description():
    script = pictures_script()
    assert set(script.TURNS) == set(REGISTRY)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = dict(re.findall(r'<img src="docs/pictures/(\w+)\.png"[^>]*alt="([^"]+)"', readme))
    assert set(shown) == set(REGISTRY)
    assert all(len(description) > 20 for description in shown.values())


def test_the_pictures_are_phone_wide_and_small():
    sizes = []
    for name in REGISTRY:
        path = ROOT / "docs" / "pictures" / f"{name}.png"
        with Image.open(path) as image:
            width, height = image.size
        assert width == 390 and height > 390, name  # a phone's width, a whole turn message
        sizes.append(path.stat().st_size)
    assert sum(sizes) <= 500 * 1024
