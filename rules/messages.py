"""The English sentence of every rules error code: one template per code.

A :class:`rules.core.Detail` (and so a :class:`rules.RulesError`) carries a ``code`` and
its ``params``; its English ``message`` is the template below filled with them, so the
words and the code cannot drift apart. ``{placeholders}`` are the params (see
:data:`rules.core.Param`: a tuple reads "a, b or c", a nested detail its own sentence).
Other languages keep their own sentence per code outside the rules core (``locales``),
with the same placeholders; a test holds the two tables together.

Codes are stable snake_case names of one concept each, shared by every game that has
it: ``empty_point`` is "no piece on that point" in Alquerque, Xiangqi, draughts and
Querni alike.

>>> MESSAGES["empty_point"].format(piece="stone", point="c3")
'there is no stone on c3'
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    # ------------------------------------------------------------------ any game: moves
    "game_over": "the game is over",
    "game_over_because": "the game is over ({ending})",
    "no_seat_skipping": "{game} cannot go on without one of its players",
    "seat_already_out": "{seat} is out already",
    "not_legal": "{move} is not a legal move",
    "not_legal_try": "{move} is not a legal move: {moves}",
    "not_a_move_value": "{value} is not a move of {game}",
    "move_refused": "{move}: {reason}",
    "input_refused": "'{input}': {reason}",
    "empty_point": "there is no {piece} on {point}",
    "not_your_piece": "{point} is not your {piece}",
    "opponents_piece": "the piece on {point} is {other}'s; {seat} is to move",
    "occupied": "{point} is occupied",
    "null_move": "a move must leave {point}",
    "must_capture": "a capture is compulsory: {moves}",
    "jumps_own_piece": "you cannot jump your own {piece} on {point}",
    "jumped_twice": "{point} was already jumped over: no cell is passed over twice in one "
                    "move",
    "taken_twice": "the piece on {point} was already taken in this move; a piece cannot be "
                   "jumped twice",
    "no_setup_phase": "{game} has no setup phase",
    # ------------------------------------------------------------------ any game: notation
    "not_a_point": "'{input}' is not a point name like a1",
    "off_board": "{point} is off the board (a1 to {last})",
    "move_too_long": "that is too long to be a move ({length} characters)",
    "two_separators": "'{input}': two separators in a row",
    "not_point_move": "'{input}' is not a move: expected point names like c2-c3 or a1xc3",
    "ends_with_separator": "'{input}' ends with a separator",
    "one_point_move": "'{input}' is not a move: name the start and end points, like c2-c3",
    "ambiguous_move": "'{input}' could mean {moves}: type the whole move",
    "move_has_no_note": "'{input}' is not one move: {move} is, but '{note}' after it is "
                        "not its note: it is written {move}, with no note",
    "wrong_move_note": "'{input}' is not one move: {move} is, but '{note}' after it is not "
                       "its note: it is written {written}",
    # ------------------------------------------------------------------ any game: options
    "unknown_game": "unknown game '{input}' (games: {games})",
    "no_options": "{game} has no option {given} (it takes no options)",
    "unknown_option": "{game} has no option {given} (options: {options})",
    "option_value": "{game}: {option}={value} is not allowed (choose from {choices})",
    "unknown_rules_version": "{game} has no rules version '{version}' (versions: {versions})",
    # ------------------------------------------------------------------ any game: positions
    "position_not_text": "a position text must be a string",
    "position_empty": "the position text is empty",
    "position_too_long": "that is too long to be a position text ({length} characters)",
    "side_letter": "the side to move is {letters}, not '{input}'",
    "not_a_piece_letter": "'{input}' is not a piece letter here (use {letters})",
    "placement_ranks": "the placement needs {count} ranks of {count} points, top rank first",
    "fen_rank_count": "the board needs {ranks} ranks separated by '/', not {count}",
    "too_many_pieces": "{seat} has more than {count} pieces",
    # ------------------------------------------------------------------ Alquerque (both)
    "no_capture_to": "no capture sequence from {start} ends at {end}",
    "not_on_a_line": "{start} and {end} are not joined by a line",
    "not_a_jump_on_a_line": "{start} to {end} is not a jump along a line",
    "nothing_to_jump": "there is no {piece} to jump on {point}",
    "never_backwards": "pieces never move backwards",
    "far_rank_stuck": "a piece on rank {rank} cannot step any more",
    "no_return": "this piece came from {point} and may not return there",
    "first_jump_direction": "the first jump must go forward, diagonally forward or sideways",
    "capture_must_continue": "a capture must continue: {move} can go on to {points}",
    "alquerque_fields": "an Alquerque position text has three fields: placement, side, "
                        "memories",
    "not_a_memory": "'{input}' is not a memory like c2>c3",
    "memory_on_empty": "memory {memory}: there is no piece on {point}",
    "two_memories": "two memories for the piece on {point}",
    "no_pieces_left": "{seat} has no pieces: the game ended before {other}'s turn",
    # ------------------------------------------------------------------ Alquerque grande
    "team_mates_piece": "{point} is your team-mate's {piece}",
    "others_piece": "{point} is {seat}'s {piece}",
    "jumps_team_mate": "{point} is your team-mate's stone: team-mates are never jumped",
    "no_step_back": "this stone came from {point} and may not step back there this turn",
    "mode_needs_four": "{game}: mode is for 4 players only (a game for 2 has no mode)",
    "rules_needs_two": "{game}: rules is for 2 players only (4 players always play the "
                       "grande rules)",
    "no_rules_option_in_v1": "{game}: rules version 1 has no rules option",
    "grande_fields": "an Alquerque grande position text has nine fields: placement, turn, "
                     "markers, captures, out, counter, huff, options, end (or three with "
                     "the original rules: placement, side, memories)",
    "not_a_marker": "'{input}' is not a marker like d3>d4",
    "grande_options_field": "'{input}' is not players=2 or players=4,mode=teams|fast|slow",
    "marker_count": "give {count} markers ('-' or from>to)",
    "marker_not_seat": "marker {marker}: {point} holds no stone of {seat}",
    "capture_count_count": "give {count} capture counts",
    "capture_count_number": "a capture count must be a whole number, not '{input}'",
    "capture_count_too_large": "a capture count is larger than the opponents' stones",
    "seats_out_mode": "only teams and slow games have seats out",
    "not_seat_letters": "'{input}' is not a group of seat letters",
    "seat_out_twice": "a seat is out twice",
    "counter_number": "the move counter must be a whole number, not '{input}'",
    "huff_point_field": "the huffed point must be empty and the counter 0",
    "out_stones_in_slow": "{seat} is out, so his stones are off the board in slow mode",
    "no_stones_not_out": "{seat} has no stones but is not out",
    "out_seat_to_move": "{seat} is out and cannot be the one to move",
    "end_field_missing": "the game is over: say so in the last field",
    "to_move_without_moves": "{seat} is to move but has no legal move",
    "not_an_ending": "'{input}' is not an ending here (one of {endings})",
    "counter_below": "the counter is below {limit}",
    "no_team_out": "no team is out",
    "players_left": "more than one player is left",
    "every_seat_has_stones": "every seat still has stones",
    "ending_is_no_pieces": "a seat has no stones: the reason would be no-pieces",
    "could_still_move": "{seat} could still move",
    # ------------------------------------------------------------------ Xiangqi
    "own_piece_on": "your own {piece} stands on {point}",
    "general_step": "the general moves one point along a line",
    "stay_in_palace": "the {piece} must stay in the palace",
    "advisor_step": "the advisor moves one point diagonally",
    "elephant_step": "the elephant moves exactly two points diagonally",
    "elephant_river": "an elephant cannot cross the river",
    "blocked": "the {piece} is blocked at {point}",
    "horse_step": "the horse moves one point along a line, then one diagonally outward",
    "moves_straight": "the {piece} moves along a file or rank",
    "cannon_no_screen": "a cannon needs exactly one screen to capture (nothing stands "
                        "between)",
    "cannon_screens": "a cannon needs exactly one screen to capture ({count} stand between)",
    "cannon_blocked": "the cannon is blocked at {point}: it jumps only to capture",
    "soldier_backwards": "a soldier cannot move backwards",
    "soldier_step": "a soldier moves one point at a time",
    "soldier_sideways": "a soldier moves sideways only after crossing the river",
    "generals_would_face": "the generals would face each other",
    "in_check": "the general would be in check",
    "in_check_from": "the general would be in check (from the {piece} on {point})",
    "captures_nothing": "{move} captures nothing: there is no piece on {point} "
                        "(write {instead})",
    "xiangqi_move_syntax": "'{input}' is not a move: write it like h3-e3, h3xh10 or C2.5 "
                           "(WXF)",
    "two_points_move": "'{input}': a xiangqi move names two points, like h3-e3",
    "iccs_rank_zero": "'{input}': ranks run 1 to 10 (ICCS ranks 0-9 are not accepted; "
                      "h2e2 in ICCS is h3-e3 here)",
    "wxf_no_piece": "'{input}': {seat} has no piece that '{designator}' names",
    "wxf_refused": "'{input}' ({move}): {reason}",
    "never_sideways": "the {piece} on {point} never moves sideways",
    "sideways_same_file": "a sideways move must leave file {file}",
    "cannot_reach_file": "the {piece} on {point} cannot reach file {file} (for {letter} the "
                         "number is the file it goes to)",
    "would_leave_board": "the {piece} on {point} would leave the board",
    "xiangqi_fen_fields": "a xiangqi FEN has the placement, the side to move and up to four "
                          "more fields, e.g. {example}",
    "rank_width": "rank {rank} ('{row}') covers {count} points, not {width}",
    "fen_dash_fields": "the third and fourth FEN fields are '-' in xiangqi, not '{input}'",
    "halfmove_clock_number": "the halfmove clock must be a whole number from 0, not "
                             "'{input}'",
    "move_number_number": "the move number must be a whole number from 1, not '{input}'",
    "too_many_of_kind": "{seat} has {count} {piece}s; at most {most} is possible",
    "one_general": "{seat} needs exactly one general, not {count}",
    "outside_palace": "{seat}'s {piece} on {point} is outside its palace",
    "advisor_point": "{seat}'s advisor on {point}: an advisor stands only on the palace's "
                     "corners and centre",
    "unreachable_point": "{seat}'s {piece} on {point}: the {piece} cannot reach that point",
    "generals_face_on_turn": "the generals face each other, but it is {seat}'s turn",
    "check_on_turn": "{other}'s general is in check, but it is {seat}'s turn",
    # ------------------------------------------------------------------ Spanish draughts
    "take_most": "you must take the most pieces ({count}): {moves}",
    "take_most_kings": "of equal captures you must take the most kings: {moves}",
    "no_capture_must_capture": "no capture leads from {start} to {end}; a capture is "
                               "compulsory: {moves}",
    "not_diagonal": "{move} is not along a diagonal",
    "step_then_more": "{move} captures nothing: only a capture can go on after a step",
    "men_forwards": "men move forwards only",
    "men_one_square": "men move one square at a time; only kings fly",
    "jumps_several": "{move} passes {count} pieces ({points}); a capture jumps exactly one",
    "men_capture_forwards": "men do not capture backwards",
    "man_jump_adjacent": "a man jumps only an adjacent piece, landing right behind it",
    "damas_move_syntax": "'{input}' is not a move: write squares like 11-15 or 10x19x26",
    "no_such_square": "there is no square {number}: squares are numbered 1 to {last}",
    "not_a_playing_square": "{point} is not a playing square: pieces stand only on squares "
                            "like h1, g2, a8 (file + rank odd)",
    "not_pdn_fen": "'{input}' is not a PDN FEN like W:W1,2,K3:B21,22,K30",
    "pdn_piece_lists": "'{input}': the piece lists must be one W list and one B list",
    "pdn_square": "'{input}' is not a square like 12 or K12",
    "empty_range": "'{input}' is an empty range",
    "square_twice": "square {number} is listed twice",
    "man_on_crowning_row": "a {seat} man cannot stand on {number} ({point}): it would "
                           "have been crowned",
    "pdn_counter_field": "'{input}' is not a counter field (H<king plies> or "
                         "T<three-kings moves>)",
    "king_ply_limit": "H{count}: the king-ply count ends the game at {limit}",
    "three_kings_limit": "T{count}: the three-kings count ends the game at {limit}",
    "three_kings_material": "T{count}: the three-kings count needs three kings against a "
                            "lone king",
    # ------------------------------------------------------------------ Querni
    "pass_not_allowed": "you may pass only when you can neither move nor remove a chain",
    "path_ends": "the jump path does not run from the start to the end",
    "every_path_jumps_twice": "every jump path from {start} to {end} jumps a cell twice "
                              "({path} jumps {point} twice): no cell is passed over twice "
                              "in one move",
    "jump_over_empty": "a jump must go over exactly one stone: {point} is empty",
    "unreachable": "no step or jump sequence takes {start} to {end}",
    "cell_off_board": "{point} is off the board",
    "step_in_jumps": "{move} is a step: a movement is one step or a sequence of jumps, not "
                     "both",
    "not_a_jump": "{move} is not a jump: a jump must go over exactly one stone onto the cell "
                  "right behind it",
    "jump_back_to_start": "a jump sequence may not return to its start cell {point}",
    "landed_twice": "{point} was already landed on",
    "stone_numbers": "stones are numbered 1 to {last}",
    "lower_number_first": "write the lower number first: {move}",
    "chain_of_one": "{move} removes only 1 stone: a chain has at least {least}",
    "chain_too_short": "{move} removes only {count} stones: a chain has at least {least}",
    "no_stone_number": "you have no stone {number} on the board",
    "chain_not_adjacent": "stone {number} is not next to stone {previous} ({point} and "
                          "{previous_point})",
    "in_setup_phase": "the game is in its setup phase: each player first submits an "
                      "arrangement of 16 numbers",
    "no_such_seat": "no seat {number} in {game}",
    "already_submitted": "{seat} has already submitted an arrangement",
    "hidden_view": "this is {seat}'s view, where {other}'s arrangement is hidden: submit on "
                   "the full position",
    "still_in_setup": "the game is still in its setup phase",
    "setup_over": "the setup phase is over",
    "whose_arrangement": "both players still have to submit an arrangement, so it is unclear "
                         "whose this is: use parse_arrangement(position, seat, text)",
    "arrangement_empty": "the arrangement is empty: it needs {need} numbers",
    "arrangement_length": "the arrangement lists {count} numbers, not {need}",
    "not_a_stone_number": "{number} is not a stone number: stones are numbered 1 to {last}",
    "number_twice": "number {number} appears twice in the arrangement",
    "arrangement_syntax": "'{input}' is not a number: an arrangement is 16 numbers in cell "
                          "order, like 5 1 9 ... 12",
    "querni_fields": "a Querni position text has 4 fields: board, side to move, quiet "
                     "turns, removed counts",
    "querni_token": "rank {rank}: '{input}' is not B<n>, P<n> or a count",
    "empty_run": "rank {rank}: empty runs count at least 1",
    "stone_twice": "{seat} stone {number} appears twice",
    "rank_cells": "rank {rank} must describe {width} cells",
    "quiet_count": "the quiet-turn count is 0 to {limit}, not '{input}'",
    "removed_counts_syntax": "the removed counts are written like 3,0, not '{input}'",
    "removed_counts_disagree": "the removed counts {input} disagree with the board ({board})",
    "both_removed_all": "both seats cannot have removed every stone",
    "no_stones_to_move": "{seat} has no stones left, so cannot be the side to move",
    "setup_text_fields": "a setup text is: setup <blue> <pink>",
    "setup_arrangement_field": "'{input}': an arrangement is -, ? or 16 comma-separated "
                               "numbers",
    "both_submitted": "both have submitted: the game is in play, not in setup",
    "removal_syntax": "'{input}': a removal is written r<low>-<high>, like r3-5",
    "querni_turn_syntax": "'{input}' is not a Querni turn: write a movement (c2-e4), a "
                          "removal (r3-5), both (c2-e4 r3-5) or pass",
    "seed_not_integer": "{game}: seed must be an integer, not {value}",
    "arrangement_with_choose": "{game}: an arrangement cannot be given with setup='choose' "
                               "(the players choose it)",
    "arrangement_pair": "{game}: arrangement is a pair (blue numbers, pink numbers), 16 each",
    "arrangement_integers": "{game}: {seat}'s arrangement must be {count} integers",
    "seat_arrangement": "{game}: {seat}'s arrangement: {reason}",
    # ------------------------------------------------------------------ record files
    "record_not_text": "a record is text",
    "record_tag_syntax": "'{input}' is not a tag: tags are written like [Event \"...\"]",
    "record_unknown_tag": "the record has a tag this format does not have: {tag} (delete "
                          "its line and import the record again)",
    "record_unknown_tag_near": "the record has a tag this format does not have: {tag} "
                               "(did you mean {tags}?)",
    "record_tag_twice": "the tag {tag} is given twice",
    "record_unclosed": "a comment or a variation is not closed: '{input}'",
    "record_after_result": "'{input}' comes after the result {result}, which ends the "
                           "record",
    "record_too_long": "the record has more than {limit} moves",
    "record_text_before_moves": "'{input}' comes before the first move number",
    "record_ply_syntax": "ply {n} ('{input}') is not one move",
    "record_illegal_move": "move {n} ({move}) cannot be played: {reason}",
    "record_after_end": "move {n} ({move}) comes after the end of the game ({ending})",
    "record_unknown_entry": "entry {n} ('{input}') is not a move: between braces a record "
                            "says only how a seat left ('{example}') or 'draw agreed'",
    "record_unknown_seat": "entry {n} ('{input}'): no seat of this game is called {name}; "
                           "a seat is called {seats}",
    "record_leaving_refused": "entry {n} ('{input}') cannot happen here: {reason}",
    "record_other_game": "this is a record of '{found}', not of {game}",
    "record_game_given": "the record is of {game}, not {named_game}: import it without "
                         "naming the game",
    "record_unknown_game": "the record names a game Tablero does not know: '{game}'",
    "record_which_game": "which game is this? Name it with a tag such as [Game \"xiangqi\"], "
                         "or give a WXF, ICCS or PDN record",
    "record_options_syntax": "the record's options cannot be read: '{input}'",
    "record_options": "the record's options do not start a game: {reason}",
    "record_custom_start": "the record starts from another position than the game's start: "
                           "only games played from the start are imported",
    "record_secret_setup": "{game} records with secret arrangements cannot be imported",
    "record_start_text": "the record's start position cannot be read: {reason}",
    "record_no_moves": "the record holds no move",
    "record_format": "the record's format is {input}: Xiangqi records are read in {formats}",
    "iccs_syntax": "'{input}' is not an ICCS move: write it like H2-E2",
    "record_game_type": "this record is of another draughts game (GameType {value}): "
                        "Spanish draughts is GameType 24",
}
"""Every code the rules core raises, with its English sentence (a test checks that each
``detail(code, ...)`` in ``rules/`` names a key here with exactly its placeholders)."""
