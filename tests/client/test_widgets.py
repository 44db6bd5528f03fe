"""The board and the hand on their own, without a server."""

from __future__ import annotations

from textual.app import App, ComposeResult

from muggins.client.widgets.hand import Hand
from muggins.client.widgets.pegboard import BACK, FRONT, Board
from muggins.shared.cards import parse_cards


def test_board_to_121_has_four_streets_and_both_skunk_lines() -> None:
    """121 holes in four streets of 30, skunk line at 91 and double skunk at 61 marked."""
    board = Board(scores=(47, 93), previous=(41, 89), names=("You", "Computer"))
    lines = [line.plain for line in board.render_lines()]
    assert len(lines) == 2 + 4 * 2 + 1
    assert lines[0].startswith(" ● Computer") and "93" in lines[0] and "(+4 from 89)" in lines[0]
    assert "skunk 91" in lines[-1] and "double skunk 61" in lines[-1]
    assert lines[6].lstrip().startswith("61 ┃") and lines[8].rstrip().endswith("┃ 91")
    assert board.glyph(0, 47) == FRONT and board.glyph(0, 41) == BACK
    assert board.pegs(1) == (93, 89)


def test_board_to_61_has_two_streets_and_skunk_line_31() -> None:
    """A game to 61 has two streets, a skunk line at 31 and no double-skunk line."""
    board = Board(target=61, scores=(61, 12), previous=(50, 0), names=("You", "Bob"))
    lines = [line.plain for line in board.render_lines()]
    assert len(lines) == 2 + 2 * 2 + 1
    assert "skunk 31" in lines[-1] and "double" not in lines[-1]
    assert lines[4].rstrip().endswith("┃ 31")
    assert board.pegs(0) == (61, 50)
    assert lines[5][5] == FRONT  # the game hole, on your row of the last street


class HandApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.got: list[object] = []

    def compose(self) -> ComposeResult:
        yield Hand()

    def on_hand_submitted(self, event: Hand.Submitted) -> None:
        self.got.append(event.cards)

    def on_hand_refused(self, event: Hand.Refused) -> None:
        self.got.append(event.reason)


async def test_hand_chooses_by_key_and_mouse_and_submits_the_right_number() -> None:
    """Two cards are chosen by toggling, a third is refused, Enter sends two; in the play a
    click chooses one card and a double click plays it."""
    app = HandApp()
    cards = parse_cards("3H 6D 7S 8S 10S QD")
    async with app.run_test() as pilot:
        hand = app.query_one(Hand)
        hand.cards, hand.need = cards, 2
        hand.toggle(0)
        hand.toggle(4)
        hand.toggle(1)
        await pilot.pause()
        assert hand.selected == {0, 4}
        assert app.got == ["Two cards are chosen already; unselect one first"]
        hand.submit()
        await pilot.pause()
        assert app.got[-1] == (cards[0], cards[4])
        hand.cards, hand.need = cards[:4], 1
        await pilot.pause()
        await pilot.click(Hand, offset=(2 * 7 + 2, 2))
        assert hand.chosen() == (cards[2],)
        await pilot.click(Hand, offset=(7 + 2, 2))
        assert hand.chosen() == (cards[1],)
        await pilot.click(Hand, offset=(3 * 7 + 2, 2), times=2)
        await pilot.pause()
        assert app.got[-1] == (cards[3],)
        hand.need = 0
        hand.submit()
        await pilot.pause()
        assert app.got[-1] == "It is not your move"


def test_game_over_says_the_match_score_as_the_log_does() -> None:
    """The dialog writes the match leader first, as the log does ("the match 2-0"), by name."""
    from muggins.client.screens import match_line
    from muggins.shared.actions import Outcome
    from muggins.shared.protocol import GameOver

    outcome = Outcome(
        game_number=2,
        winner=1,
        scores=(80, 121),
        skunk=True,
        double_skunk=False,
        game_points=2,
        reason="score",
    )
    over = GameOver(outcome=outcome, winner="Bob", match_points=(0, 2), match_over=True, text="x")
    assert match_line(over, you=0, names=("Ann", "Bob")) == "Match: Bob wins 2–0"
    assert match_line(over, you=1, names=("Ann", "Bob")) == "Match: You win 2–0"
    going = over.model_copy(update={"match_points": (1, 2), "match_over": False})
    assert match_line(going, you=None, names=("Ann", "Bob")) == "Match: Bob leads 2–1"
