"""A seat's secrets (what its view shows beyond the public view) worked out once for the same
views are those of the views asked about: a view made anew for a changed state gets its own,
and the delta handed out is the one `private_delta` gives."""
from __future__ import annotations

from bot.choices import private_delta, seat_secrets


def test_the_same_views_give_the_same_delta_and_new_views_their_own():
    public = {"board": [1, 2, 3], "hands": [None, None]}
    mine = {"board": [1, 2, 3], "hands": [["a", "b"], None], "viewer": 0}
    assert seat_secrets(mine, public) == private_delta(mine, public) == {"hands": [["a", "b"], None]}
    assert seat_secrets(mine, public) is seat_secrets(mine, public)
    after = {"board": [1, 2, 3], "hands": [["b"], None], "viewer": 0}  # one card played
    assert seat_secrets(after, public) == {"hands": [["b"], None]}
    public_after = {"board": [1, 2, 4], "hands": [None, None]}
    assert seat_secrets(mine, public_after) == {"board": [None, None, 3], "hands": [["a", "b"], None]}
    assert seat_secrets({"board": [1, 2, 3], "hands": [None, None]}, public) == {}
