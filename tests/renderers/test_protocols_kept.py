"""`renderers._conforms`: whether a game's renderer module is one of the optional protocols,
worked out once, is what `isinstance` says, asked first or again."""
from __future__ import annotations

import importlib

import pytest

from games import REGISTRY
from renderers import HandAlone, PrivateShown, SeatStrips, _conforms


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_module_worked_out_once_is_what_isinstance_says(name):
    module = importlib.import_module(f"renderers.{name}")
    for protocol in (SeatStrips, PrivateShown, HandAlone):
        assert _conforms(module, protocol) == isinstance(module, protocol)
        assert _conforms(module, protocol) == isinstance(module, protocol)  # asked again: kept


def test_raub_ritter_says_what_its_seat_images_show():
    module = importlib.import_module("renderers.raubritter")
    assert _conforms(module, HandAlone) and _conforms(module, PrivateShown)
