"""The rules core's refusals in the reader's words.

A :class:`rules.RulesError` says why as data: a stable ``code`` and the ``params`` its
sentence names (``rules.messages`` holds the English template of each code). Here each
code has its message id, with the same placeholders, so the edge can say "there is no
piece on c3" in any language. Params named ``game``, ``seat``/``other``, ``piece`` and
``ending`` are game terms and are said in the reader's words (:mod:`locales.terms`);
points, moves and what the player typed stay as they are (notation is never
translated); a tuple of choices is listed with the language's "or"; a nested detail is
said in turn.

>>> import rules
>>> v = rules.variant("xiangqi")
>>> try:
...     v.parse_move(v.start(), "c3-c4")
... except rules.RulesError as e:
...     said = rules_words(e)
>>> said.render("en-US")
'c3-c4: there is no piece on c3'
>>> rules_words(rules.RulesError("uncoded")).render("en-GB")
'the rules do not allow that'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from locales.i18n import Text, Words, _, alternatives
from locales.terms import game_name, piece_name, reason, seat_colour
from rules import RulesError
from rules.core import Detail, Param

UNCODED: Final = _("the rules do not allow that")
"""What is said for a rules error without a known code (none is raised by the rules core;
a test holds every code here): never the English detail inside a translated sentence."""

# TRANSLATORS: the rules' reasons for refusing a move, an option or a position text; they
# are shown inside a sentence such as "That move is not legal here (…)". Keep points
# (c3), moves (c3-c4, r3-5, C2.5) and quoted input ('{input}') as they are.
WORDS: Final[dict[str, Text]] = {
    # any game: moves
    "game_over": _("the game is over"),
    "game_over_because": _("the game is over ({ending})"),
    "no_seat_skipping": _("{game} cannot go on without one of its players"),
    "seat_already_out": _("{seat} is out already"),
    "not_legal": _("{move} is not a legal move"),
    "not_legal_try": _("{move} is not a legal move: {moves}"),
    "not_a_move_value": _("{value} is not a move of {game}"),
    "move_refused": _("{move}: {reason}"),
    "input_refused": _("'{input}': {reason}"),
    "empty_point": _("there is no {piece} on {point}"),
    "not_your_piece": _("{point} is not your {piece}"),
    "opponents_piece": _("the piece on {point} is {other}'s; {seat} is to move"),
    "occupied": _("{point} is occupied"),
    "null_move": _("a move must leave {point}"),
    "must_capture": _("a capture is compulsory: {moves}"),
    "jumps_own_piece": _("you cannot jump your own {piece} on {point}"),
    "jumped_twice": _("{point} was already jumped over: no cell is passed over twice in one move"),
    "taken_twice": _(
        "the piece on {point} was already taken in this move; a piece cannot be "
        "jumped twice"),
    "no_setup_phase": _("{game} has no setup phase"),
    # any game: notation
    "not_a_point": _("'{input}' is not a point name like a1"),
    "off_board": _("{point} is off the board (a1 to {last})"),
    "move_too_long": _("that is too long to be a move ({length} characters)"),
    "two_separators": _("'{input}': two separators in a row"),
    "not_point_move": _("'{input}' is not a move: expected point names like c2-c3 or a1xc3"),
    "ends_with_separator": _("'{input}' ends with a separator"),
    "one_point_move": _("'{input}' is not a move: name the start and end points, like c2-c3"),
    "ambiguous_move": _("'{input}' could mean {moves}: type the whole move"),
    "move_has_no_note": _(
        "'{input}' is not one move: {move} is, but '{note}' after it is not its "
        "note: it is written {move}, with no note"),
    "wrong_move_note": _(
        "'{input}' is not one move: {move} is, but '{note}' after it is not its "
        "note: it is written {written}"),
    # any game: options
    "unknown_game": _("unknown game '{input}' (games: {games})"),
    "no_options": _("{game} has no option {given} (it takes no options)"),
    "unknown_option": _("{game} has no option {given} (options: {options})"),
    "option_value": _("{game}: {option}={value} is not allowed (choose from {choices})"),
    "unknown_rules_version": _("{game} has no rules version '{version}' (versions: {versions})"),
    # any game: positions
    "position_not_text": _("a position text must be a string"),
    "position_empty": _("the position text is empty"),
    "position_too_long": _("that is too long to be a position text ({length} characters)"),
    "side_letter": _("the side to move is {letters}, not '{input}'"),
    "not_a_piece_letter": _("'{input}' is not a piece letter here (use {letters})"),
    "placement_ranks": _("the placement needs {count} ranks of {count} points, top rank first"),
    "fen_rank_count": _("the board needs {ranks} ranks separated by '/', not {count}"),
    "too_many_pieces": _("{seat} has more than {count} pieces"),
    # Alquerque (both)
    "no_capture_to": _("no capture sequence from {start} ends at {end}"),
    "not_on_a_line": _("{start} and {end} are not joined by a line"),
    "not_a_jump_on_a_line": _("{start} to {end} is not a jump along a line"),
    "nothing_to_jump": _("there is no {piece} to jump on {point}"),
    "never_backwards": _("pieces never move backwards"),
    "far_rank_stuck": _("a piece on rank {rank} cannot step any more"),
    "no_return": _("this piece came from {point} and may not return there"),
    "first_jump_direction": _("the first jump must go forward, diagonally forward or sideways"),
    "capture_must_continue": _("a capture must continue: {move} can go on to {points}"),
    "alquerque_fields": _("an Alquerque position text has three fields: placement, side, memories"),
    "not_a_memory": _("'{input}' is not a memory like c2>c3"),
    "memory_on_empty": _("memory {memory}: there is no piece on {point}"),
    "two_memories": _("two memories for the piece on {point}"),
    "no_pieces_left": _("{seat} has no pieces: the game ended before {other}'s turn"),
    # Alquerque grande
    "team_mates_piece": _("{point} is your team-mate's {piece}"),
    "others_piece": _("{point} is {seat}'s {piece}"),
    "jumps_team_mate": _("{point} is your team-mate's stone: team-mates are never jumped"),
    "no_step_back": _("this stone came from {point} and may not step back there this turn"),
    "mode_needs_four": _("{game}: mode is for 4 players only (a game for 2 has no mode)"),
    "rules_needs_two": _(
        "{game}: rules is for 2 players only (4 players always play the grande "
        "rules)"),
    "no_rules_option_in_v1": _("{game}: rules version 1 has no rules option"),
    "grande_fields": _(
        "an Alquerque grande position text has nine fields: placement, turn, "
        "markers, captures, out, counter, huff, options, end (or three with the "
        "original rules: placement, side, memories)"),
    "not_a_marker": _("'{input}' is not a marker like d3>d4"),
    "grande_options_field": _("'{input}' is not players=2 or players=4,mode=teams|fast|slow"),
    "marker_count": _("give {count} markers ('-' or from>to)"),
    "marker_not_seat": _("marker {marker}: {point} holds no stone of {seat}"),
    "capture_count_count": _("give {count} capture counts"),
    "capture_count_number": _("a capture count must be a whole number, not '{input}'"),
    "capture_count_too_large": _("a capture count is larger than the opponents' stones"),
    "seats_out_mode": _("only teams and slow games have seats out"),
    "not_seat_letters": _("'{input}' is not a group of seat letters"),
    "seat_out_twice": _("a seat is out twice"),
    "counter_number": _("the move counter must be a whole number, not '{input}'"),
    "huff_point_field": _("the huffed point must be empty and the counter 0"),
    "out_stones_in_slow": _("{seat} is out, so their stones are off the board in slow mode"),
    "no_stones_not_out": _("{seat} has no stones but is not out"),
    "out_seat_to_move": _("{seat} is out and cannot be the one to move"),
    "end_field_missing": _("the game is over: say so in the last field"),
    "to_move_without_moves": _("{seat} is to move but has no legal move"),
    "not_an_ending": _("'{input}' is not an ending here (one of {endings})"),
    "counter_below": _("the counter is below {limit}"),
    "no_team_out": _("no team is out"),
    "players_left": _("more than one player is left"),
    "every_seat_has_stones": _("every seat still has stones"),
    "ending_is_no_pieces": _("a seat has no stones: the reason would be no-pieces"),
    "could_still_move": _("{seat} could still move"),
    # Xiangqi
    "own_piece_on": _("your own {piece} stands on {point}"),
    "general_step": _("the general moves one point along a line"),
    "stay_in_palace": _("the {piece} must stay in the palace"),
    "advisor_step": _("the advisor moves one point diagonally"),
    "elephant_step": _("the elephant moves exactly two points diagonally"),
    "elephant_river": _("an elephant cannot cross the river"),
    "blocked": _("the {piece} is blocked at {point}"),
    "horse_step": _("the horse moves one point along a line, then one diagonally outward"),
    "moves_straight": _("the {piece} moves along a file or rank"),
    "cannon_no_screen": _("a cannon needs exactly one screen to capture (nothing stands between)"),
    "cannon_screens": _("a cannon needs exactly one screen to capture ({count} stand between)"),
    "cannon_blocked": _("the cannon is blocked at {point}: it jumps only to capture"),
    "soldier_backwards": _("a soldier cannot move backwards"),
    "soldier_step": _("a soldier moves one point at a time"),
    "soldier_sideways": _("a soldier moves sideways only after crossing the river"),
    "generals_would_face": _("the generals would face each other"),
    "in_check": _("the general would be in check"),
    "in_check_from": _("the general would be in check (from the {piece} on {point})"),
    "captures_nothing": _(
        "{move} captures nothing: there is no piece on {point} (write "
        "{instead})"),
    "xiangqi_move_syntax": _("'{input}' is not a move: write it like h3-e3, h3xh10 or C2.5 (WXF)"),
    "two_points_move": _("'{input}': a xiangqi move names two points, like h3-e3"),
    "iccs_rank_zero": _(
        "'{input}': ranks run 1 to 10 (ICCS ranks 0-9 are not accepted; h2e2 in "
        "ICCS is h3-e3 here)"),
    "wxf_no_piece": _("'{input}': {seat} has no piece that '{designator}' names"),
    "wxf_refused": _("'{input}' ({move}): {reason}"),
    "never_sideways": _("the {piece} on {point} never moves sideways"),
    "sideways_same_file": _("a sideways move must leave file {file}"),
    "cannot_reach_file": _(
        "the {piece} on {point} cannot reach file {file} (for {letter} the "
        "number is the file it goes to)"),
    "would_leave_board": _("the {piece} on {point} would leave the board"),
    "xiangqi_fen_fields": _(
        "a xiangqi FEN has the placement, the side to move and up to four more "
        "fields, e.g. {example}"),
    "rank_width": _("rank {rank} ('{row}') covers {count} points, not {width}"),
    "fen_dash_fields": _("the third and fourth FEN fields are '-' in xiangqi, not '{input}'"),
    "halfmove_clock_number": _("the halfmove clock must be a whole number from 0, not '{input}'"),
    "move_number_number": _("the move number must be a whole number from 1, not '{input}'"),
    "too_many_of_kind": _("{seat} has {count} {piece}s; at most {most} is possible"),
    "one_general": _("{seat} needs exactly one general, not {count}"),
    "outside_palace": _("{seat}'s {piece} on {point} is outside its palace"),
    "advisor_point": _(
        "{seat}'s advisor on {point}: an advisor stands only on the palace's "
        "corners and centre"),
    "unreachable_point": _("{seat}'s {piece} on {point}: the {piece} cannot reach that point"),
    "generals_face_on_turn": _("the generals face each other, but it is {seat}'s turn"),
    "check_on_turn": _("{other}'s general is in check, but it is {seat}'s turn"),
    # Spanish draughts
    "take_most": _("you must take the most pieces ({count}): {moves}"),
    "take_most_kings": _("of equal captures you must take the most kings: {moves}"),
    "no_capture_must_capture": _(
        "no capture leads from {start} to {end}; a capture is compulsory: "
        "{moves}"),
    "not_diagonal": _("{move} is not along a diagonal"),
    "step_then_more": _("{move} captures nothing: only a capture can go on after a step"),
    "men_forwards": _("men move forwards only"),
    "men_one_square": _("men move one square at a time; only kings fly"),
    "jumps_several": _("{move} passes {count} pieces ({points}); a capture jumps exactly one"),
    "men_capture_forwards": _("men do not capture backwards"),
    "man_jump_adjacent": _("a man jumps only an adjacent piece, landing right behind it"),
    "damas_move_syntax": _("'{input}' is not a move: write squares like 11-15 or 10x19x26"),
    "no_such_square": _("there is no square {number}: squares are numbered 1 to {last}"),
    "not_a_playing_square": _(
        "{point} is not a playing square: pieces stand only on squares like h1, "
        "g2, a8 (file + rank odd)"),
    "not_pdn_fen": _("'{input}' is not a PDN FEN like W:W1,2,K3:B21,22,K30"),
    "pdn_piece_lists": _("'{input}': the piece lists must be one W list and one B list"),
    "pdn_square": _("'{input}' is not a square like 12 or K12"),
    "empty_range": _("'{input}' is an empty range"),
    "square_twice": _("square {number} is listed twice"),
    "man_on_crowning_row": _(
        "a {seat} man cannot stand on {number} ({point}): it would have been "
        "crowned"),
    "pdn_counter_field": _(
        "'{input}' is not a counter field (H<king plies> or T<three-kings "
        "moves>)"),
    "king_ply_limit": _("H{count}: the king-ply count ends the game at {limit}"),
    "three_kings_limit": _("T{count}: the three-kings count ends the game at {limit}"),
    "three_kings_material": _(
        "T{count}: the three-kings count needs three kings against a lone king"),
    # Querni
    "pass_not_allowed": _("you may pass only when you can neither move nor remove a chain"),
    "path_ends": _("the jump path does not run from the start to the end"),
    "every_path_jumps_twice": _(
        "every jump path from {start} to {end} jumps a cell twice ({path} jumps "
        "{point} twice): no cell is passed over twice in one move"),
    "jump_over_empty": _("a jump must go over exactly one stone: {point} is empty"),
    "unreachable": _("no step or jump sequence takes {start} to {end}"),
    "cell_off_board": _("{point} is off the board"),
    "step_in_jumps": _("{move} is a step: a movement is one step or a sequence of jumps, not both"),
    "not_a_jump": _(
        "{move} is not a jump: a jump must go over exactly one stone onto the "
        "cell right behind it"),
    "jump_back_to_start": _("a jump sequence may not return to its start cell {point}"),
    "landed_twice": _("{point} was already landed on"),
    "stone_numbers": _("stones are numbered 1 to {last}"),
    "lower_number_first": _("write the lower number first: {move}"),
    "chain_of_one": _("{move} removes only 1 stone: a chain has at least {least}"),
    "chain_too_short": _("{move} removes only {count} stones: a chain has at least {least}"),
    "no_stone_number": _("you have no stone {number} on the board"),
    "chain_not_adjacent": _(
        "stone {number} is not next to stone {previous} ({point} and "
        "{previous_point})"),
    "in_setup_phase": _(
        "the game is in its setup phase: each player first submits an "
        "arrangement of 16 numbers"),
    "no_such_seat": _("no seat {number} in {game}"),
    "already_submitted": _("{seat} has already submitted an arrangement"),
    "hidden_view": _(
        "this is {seat}'s view, where {other}'s arrangement is hidden: submit "
        "on the full position"),
    "still_in_setup": _("the game is still in its setup phase"),
    "setup_over": _("the setup phase is over"),
    "whose_arrangement": _(
        "both players still have to submit an arrangement, so it is unclear "
        "whose this is: use parse_arrangement(position, seat, text)"),
    "arrangement_empty": _("the arrangement is empty: it needs {need} numbers"),
    "arrangement_length": _("the arrangement lists {count} numbers, not {need}"),
    "not_a_stone_number": _("{number} is not a stone number: stones are numbered 1 to {last}"),
    "number_twice": _("number {number} appears twice in the arrangement"),
    "arrangement_syntax": _(
        "'{input}' is not a number: an arrangement is 16 numbers in cell order, "
        "like 5 1 9 ... 12"),
    "querni_fields": _(
        "a Querni position text has 4 fields: board, side to move, quiet turns, "
        "removed counts"),
    "querni_token": _("rank {rank}: '{input}' is not B<n>, P<n> or a count"),
    "empty_run": _("rank {rank}: empty runs count at least 1"),
    "stone_twice": _("{seat} stone {number} appears twice"),
    "rank_cells": _("rank {rank} must describe {width} cells"),
    "quiet_count": _("the quiet-turn count is 0 to {limit}, not '{input}'"),
    "removed_counts_syntax": _("the removed counts are written like 3,0, not '{input}'"),
    "removed_counts_disagree": _("the removed counts {input} disagree with the board ({board})"),
    "both_removed_all": _("both seats cannot have removed every stone"),
    "no_stones_to_move": _("{seat} has no stones left, so cannot be the side to move"),
    "setup_text_fields": _("a setup text is: setup <blue> <pink>"),
    "setup_arrangement_field": _("'{input}': an arrangement is -, ? or 16 comma-separated numbers"),
    "both_submitted": _("both have submitted: the game is in play, not in setup"),
    "removal_syntax": _("'{input}': a removal is written r<low>-<high>, like r3-5"),
    "querni_turn_syntax": _(
        "'{input}' is not a Querni turn: write a movement (c2-e4), a removal "
        "(r3-5), both (c2-e4 r3-5) or pass"),
    "seed_not_integer": _("{game}: seed must be an integer, not {value}"),
    "arrangement_with_choose": _(
        "{game}: an arrangement cannot be given with setup='choose' (the "
        "players choose it)"),
    "arrangement_pair": _("{game}: arrangement is a pair (blue numbers, pink numbers), 16 each"),
    "arrangement_integers": _("{game}: {seat}'s arrangement must be {count} integers"),
    "seat_arrangement": _("{game}: {seat}'s arrangement: {reason}"),
    # record files (issue 44's import)
    "record_not_text": _('a record is text'),
    "record_tag_syntax": _('\'{input}\' is not a tag: tags are written like [Event "..."]'),
    "record_unknown_tag": _("the record has a tag this format does not have: {tag} "
                            "(delete its line and import the record again)"),
    # TRANSLATORS: {tags} is one to three tag names the format has, joined with "or"
    "record_unknown_tag_near": _("the record has a tag this format does not have: {tag} "
                                 "(did you mean {tags}?)"),
    "record_tag_twice": _('the tag {tag} is given twice'),
    "record_unclosed": _("a comment or a variation is not closed: '{input}'"),
    "record_after_result": _("'{input}' comes after the result {result}, which ends the "
                             "record"),
    "record_too_long": _('the record has more than {limit} moves'),
    "record_text_before_moves": _("'{input}' comes before the first move number"),
    "record_ply_syntax": _("ply {n} ('{input}') is not one move"),
    "record_illegal_move": _('move {n} ({move}) cannot be played: {reason}'),
    "record_after_end": _('move {n} ({move}) comes after the end of the game ({ending})'),
    "record_unknown_entry": _("entry {n} ('{input}') is not a move: between braces a record "
                              "says only how a seat left ('{example}') or 'draw agreed'"),
    "record_unknown_seat": _("entry {n} ('{input}'): no seat of this game is called {name}; "
                             "a seat is called {seats}"),
    "record_leaving_refused": _("entry {n} ('{input}') cannot happen here: {reason}"),
    "record_other_game": _("this is a record of '{found}', not of {game}"),
    "record_game_given": _("the record is of {game}, not {named_game}: import it without "
                           "naming the game"),
    "record_unknown_game": _("the record names a game Tablero does not know: '{game}'"),
    "record_which_game": _('which game is this? Name it with a tag such as [Game "xiangqi"], '
                           "or give a WXF, ICCS or PDN record"),
    "record_options_syntax": _("the record's options cannot be read: '{input}'"),
    "record_options": _("the record's options do not start a game: {reason}"),
    "record_custom_start": _("the record starts from another position than the game's start: "
                             "only games played from the start are imported"),
    "record_secret_setup": _('{game} records with secret arrangements cannot be imported'),
    "record_start_text": _("the record's start position cannot be read: {reason}"),
    "record_no_moves": _('the record holds no move'),
    "record_format": _("the record's format is {input}: Xiangqi records are read in {formats}"),
    "iccs_syntax": _("'{input}' is not an ICCS move: write it like H2-E2"),
    "record_game_type": _("this record is of another draughts game (GameType {value}): "
                          "Spanish draughts is GameType 24"),
}
"""Every code of ``rules.messages.MESSAGES``, in words for translation (a test checks
both tables have the same codes and placeholders)."""

_SEATS: Final = frozenset({"seat", "other"})


def rules_words(error: RulesError | Detail) -> Words:
    """Why the rules refused, in the reader's words (a lazy text for the edge to render)."""
    if isinstance(error, RulesError):
        error = error.detail
    words = WORDS.get(error.code)
    if words is None:
        return UNCODED
    return Text(words.msgid, _said(error.params))


def refusal_words(error: Exception) -> Words:
    """A rules error in words (:func:`rules_words`); any other error (a ``ValueError`` or
    ``TypeError`` from values the rules cannot even read: a bug, not a refusal the core
    explains) in the generic words, never its English text inside a translated sentence.
    """
    return rules_words(error) if isinstance(error, RulesError) else UNCODED


def _said(params: Mapping[str, Param]) -> dict[str, object]:
    return {name: _value(name, value) for name, value in params.items()}


def _value(name: str, value: Param) -> object:
    if isinstance(value, Detail):
        return rules_words(value)
    if isinstance(value, tuple):
        return alternatives(value)
    if isinstance(value, int):
        return value
    if name in ("game", "named_game"):
        return game_name(value)
    if name in _SEATS:
        return seat_colour(value)
    if name == "piece":
        return piece_name(value)
    if name == "ending":
        return reason(value)
    return value
