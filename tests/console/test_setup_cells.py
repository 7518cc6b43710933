"""A new player in a Querni ``choose`` set-up was told to write "your 16 numbers in cell
order", and nothing (not /help, not /rules querni) said which cells in which order: the
console names them, his own, while he still has to hand in his arrangement."""

from __future__ import annotations

from tests.console.test_messages import after, play

BLUE = "a1 b1 c1 h1 i1 j1 a2 c2 h2 j2 a3 b3 c3 h3 i3 j3"
PINK = "a5 b5 c5 h5 i5 j5 a6 c6 h6 j6 a7 b7 c7 h7 i7 j7"


def cells_line(cells: str) -> str:
    return f"#1: /setup your numbers for the cells {cells}, in this order"


async def test_each_player_is_told_his_own_cells_until_he_has_arranged() -> None:
    out = await play("as alice\n/challenge @bob querni setup:choose seat:blue\nas bob\n"
                     "/accept\n/board\n/setup 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
                     "/board\nas alice\n/board")
    waiting = "#1: the board appears once both arrangements are in"
    assert after(out, "/accept").endswith(f"{waiting}\n{cells_line(PINK)}")
    boards = [said.split("\n> ")[0] for said in out.split("> /board\n")[1:]]
    assert boards == [f"{waiting}\n{cells_line(PINK)}",
                      waiting,  # bob has arranged: nothing more for him to write
                      f"{waiting}\n{cells_line(BLUE)}\n"]  # alice has not, on her cells

async def test_the_numbers_land_on_the_cells_named() -> None:
    numbers = "3 1 4 15 9 2 6 5 13 8 7 10 12 11 16 14"
    out = await play("as alice\n/challenge @bob querni setup:choose seat:blue\nas bob\n"
                     f"/accept\n/setup {numbers}\nas alice\n"
                     "/setup 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n/board")
    board = after(out, "/board").splitlines()
    columns = "abcdefghij"

    def stone(cell: str) -> str:
        row = next(line for line in board if line.startswith(f" {cell[1]} "))
        return row.split()[1 + columns.index(cell[0])]

    assert [stone(c) for c in PINK.split()] == [f"{n}p" for n in numbers.split()]
    assert [stone(c) for c in BLUE.split()] == [f"{n}b" for n in range(1, 17)]
