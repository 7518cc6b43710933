"""Words in the reader's language: gettext catalogues (``.po``, read with Babel) and lazy texts.

Code that decides things never knows who will read a sentence (a reply speaks the user's
Discord locale, a thread post the server's language, a DM the recipient's last seen
locale), so it does not translate: it builds a :class:`Text` with :func:`_` (or
:func:`_n` for counts) and the edge renders it for its reader with :meth:`Text.render`.
The message id is the English sentence (gettext's convention, as Red does); placeholders
are ``{name}`` fields filled from keyword arguments, which may be texts themselves.
Fractions are formatted by the reader's rules (``1.5`` / ``1,5``); whole numbers (ids,
plies, counts) are written plainly, the same everywhere.

>>> t = _("{player} resigned.", player="Ana")
>>> t.render("en-US")
'Ana resigned.'
>>> _n("{count} day", "{count} days", 3).render("en-GB")
'3 days'
>>> negotiate("de"), negotiate("es-419"), negotiate("pt-BR"), negotiate(None)
('de', 'es-419', 'en-US', 'en-US')

Catalogues live in ``locales/<locale>/LC_MESSAGES/tablero.po`` (``pybabel extract`` with
the keywords ``_`` and ``_n:1,2`` writes ``locales/tablero.pot``); they are read once per
process. A message missing from a catalogue falls back to English, never to an error.
"""

from __future__ import annotations

import contextlib
import gettext
import hashlib
import io
import os
import re
import sys
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Final, Literal, Protocol, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: The locales Tablero speaks, as Discord names them. English (United States) is the default.
LOCALES: Final = ("en-US", "en-GB", "de", "es-ES", "es-419", "sv-SE", "zh-CN", "zh-TW")
DEFAULT_LOCALE: Final = "en-US"
DOMAIN: Final = "tablero"
CATALOGUES: Final = Path(__file__).resolve().parent

ListStyle = Literal["standard", "or"]
"""How a :class:`Listing` joins its items: "a, b and c" or "a, b or c"."""

# Discord locales (and common language tags) that are served by a supported one.
_ALIASES: Final[Mapping[str, str]] = {
    "en": "en-US", "es": "es-ES", "sv": "sv-SE", "zh": "zh-CN",
    "de-de": "de", "de-at": "de", "de-ch": "de", "zh-hans": "zh-CN", "zh-hant": "zh-TW",
    "zh-hk": "zh-TW", "es-mx": "es-419", "es-ar": "es-419",
}


def negotiate(tag: str | None) -> str:
    """The supported locale for a Discord locale or language tag (the default for others).

    >>> negotiate("en-GB"), negotiate("zh_TW"), negotiate("SV")
    ('en-GB', 'zh-TW', 'sv-SE')
    """
    if not tag:
        return DEFAULT_LOCALE
    wanted = str(tag).strip().replace("_", "-")
    for known in LOCALES:
        if known.lower() == wanted.lower():
            return known
    lowered = wanted.lower()
    if lowered in _ALIASES:
        return _ALIASES[lowered]
    language = lowered.split("-", 1)[0]
    return _ALIASES.get(language, next(
        (known for known in LOCALES if known.lower() == language), DEFAULT_LOCALE))


@cache
def babel_locale(locale: str) -> Locale:
    """Babel's (CLDR) locale for a supported one, parsed once (``zh-CN`` resolves its
    script each time otherwise)."""
    return Locale.parse(locale.replace("-", "_"))


def catalogue_path(locale: str) -> Path:
    """Where the ``.po`` file of ``locale`` lives (``de`` -> ``locales/de/LC_MESSAGES``)."""
    return CATALOGUES / locale.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(locale: str) -> gettext.NullTranslations:
    """The gettext translations of ``locale`` (English: none needed, ids are English).

    Read from the ``.po`` with Babel and compiled (:func:`compiled`), so a catalogue edit
    needs no build step; the plural rule is the catalogue's own (CLDR's, written by Babel).
    """
    path = catalogue_path(locale)
    if not path.is_file():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compiled(path, locale)))


def compiled(path: Path, locale: str) -> bytes:
    """The ``.mo`` of the catalogue at ``path``, compiled once for these very bytes: kept,
    as Python keeps its compiled modules, in ``__pycache__`` beside the package
    (``tablero-<locale>-<digest>.mo``, the digest of the ``.po``, Babel's version and the
    locale), read back by every later process (measured: reading a ``.po`` with Babel and
    compiling it cost 55-100 ms of CPU a language in every process, reading the ``.mo``
    3 ms). Nothing is written where Python writes no ``__pycache__`` either
    (``sys.dont_write_bytecode``) or where it cannot write (a read-only install):
    compiled in memory as before, each time."""
    import babel

    source = path.read_bytes()
    digest = hashlib.sha256(b"%s\0%s\0%s" % (babel.__version__.encode(), locale.encode(),
                                               source)).hexdigest()[:24]
    kept = CATALOGUES / "__pycache__" / f"{DOMAIN}-{locale}-{digest}.mo"
    with contextlib.suppress(OSError):
        return kept.read_bytes()
    catalog = read_po(io.BytesIO(source), locale=locale.replace("-", "_"), domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    made = buffer.getvalue()
    if not sys.dont_write_bytecode:
        with contextlib.suppress(OSError):
            kept.parent.mkdir(exist_ok=True)
            for old in kept.parent.glob(f"{DOMAIN}-{locale}-*.mo"):  # of earlier catalogues
                old.unlink(missing_ok=True)
            partial = kept.with_name(f"{kept.name}.{os.getpid()}.part")
            partial.write_bytes(made)
            partial.replace(kept)  # whole or not at all, for processes reading it at once
    return made


class Lazy(ABC):
    """Words not yet in any language: a :class:`Text`, a :func:`listing` or a
    :func:`joined` run of them. The edge renders them for its reader."""

    __slots__ = ()

    @abstractmethod
    def render(self, locale: str | None) -> str:
        """The words in ``locale`` (negotiated)."""

    # Lazy words have no language yet: an f-string or ``str()`` over them would show a
    # person the Python object (``Text(msgid=...)``). mypy cannot see that (it accepts any
    # object in an f-string), so it fails loudly here, in every test that takes the path.
    def __str__(self) -> str:
        raise TypeError(f"{type(self).__name__} is not words yet: render it for its "
                        f"reader (render(text, locale)), never str() or an f-string")

    def __format__(self, spec: str) -> str:
        raise TypeError(f"{type(self).__name__} is not words yet: render it for its "
                        f"reader (render(text, locale)) before formatting it")


@dataclass(frozen=True, slots=True)
class Text(Lazy):
    """A sentence not yet in any language: a message id, its plural and its values.

    Build it with :func:`_` or :func:`_n`; render it with :meth:`render`. ``str()`` and
    f-strings over it raise on purpose: an untranslated text must not slip into a message
    unnoticed (the ``Text(msgid=...)`` a person once read after ``/claim``).
    """

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None

    def render(self, locale: str | None) -> str:
        """The sentence in ``locale`` (negotiated), its placeholders filled.

        >>> _("Move {ply}", ply=_("{n}th", n=4)).render("en-US")
        'Move 4th'
        """
        return self._said(negotiate(locale), capital=False)

    def _said(self, chosen: str, *, capital: bool) -> str:
        """The sentence in the supported locale ``chosen``; with ``capital``, its first
        letter a capital when that letter is the sentence's own (the catalogue's): a
        sentence that starts with a value (``{move}: …``) capitalizes the value only if
        that is words again, never a plain string (a move, a name, ``#3``)."""
        t = translations(chosen)
        if self.plural is not None and self.count is not None:
            pattern = t.ngettext(self.msgid, self.plural, self.count)
        else:
            pattern = t.gettext(self.msgid)
        values = {k: render_value(v, chosen) for k, v in self.params.items()}
        if self.count is not None and "count" not in values:
            values["count"] = render_value(self.count, chosen)
        try:
            return self._filled(pattern, values, chosen, capital)
        except (KeyError, IndexError, ValueError):
            # A translation with a broken placeholder must not lose the message: English.
            fallback = self.plural if self.plural is not None and self.count != 1 else self.msgid
            return self._filled(fallback, values, chosen, capital)

    def _filled(self, pattern: str, values: dict[str, str], chosen: str,
                capital: bool) -> str:
        for key, value in self.params.items():
            # a command in code marks (`{move}`) shows them as code: its mention would be
            # written out, not shown; the mention stands bare, its options still marked
            if not isinstance(value, Command) or f"`{{{key}}}`" not in pattern:
                continue
            mention = value.mention()
            if mention is not None:
                pattern = pattern.replace(f"`{{{key}}}`", f"{{{key}}}")
                options = value.shown_options(chosen)
                values = {**values, key: f"{mention} `{options}`" if options else mention}
        if capital:
            lead = _LEADING_FIELD.match(pattern)
            if lead is None:
                pattern = pattern[:1].upper() + pattern[1:]
            elif lead[1] in self.params and not isinstance(self.params[lead[1]], Command):
                # (a command is written as it is: its mention as made above)
                values = {**values, lead[1]: _capital(self.params[lead[1]], chosen)}
        if not _unspaced(chosen):
            return pattern.format(**values)
        typed = {k for k, v in self.params.items() if isinstance(v, Command | Option)}
        marked = pattern.format(**{k: v if k in typed else f"{_START}{v}{_END}"
                                   for k, v in values.items()})  # a command keeps its space
        if marked.count(_START) != marked.count(_END) or any(
                _START in v or _END in v for v in values.values()):
            return pattern.format(**values)  # (a value with the marks in it: as it is)
        return _tight(marked)


_START: Final = "\ue000"
_END: Final = "\ue001"
"""Private-use marks around each value while a Chinese sentence is filled: where a value
begins and ends (see :func:`_tight`)."""

_HAN: Final = re.compile("[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf"
                         "\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
"""A Chinese character or Chinese punctuation (ideographs, CJK and full-width marks)."""

_EMPHASIS: Final = "*_~"


def _unspaced(chosen: str) -> bool:
    """Whether ``chosen`` writes no space between two Chinese characters (Chinese)."""
    return chosen.startswith("zh")


def _edge(text: str, at: int, step: int, skipped: str = _EMPHASIS) -> str:
    """The first character of ``text`` from ``at`` on, going by ``step``, that is not
    one of ``skipped`` (Markdown's emphasis, ``**``), or nothing."""
    while 0 <= at < len(text) and text[at] in skipped:
        at += step
    return text[at] if 0 <= at < len(text) else ""


def _han_edge(text: str, at: int, step: int) -> bool:
    """Whether the first character from ``at`` on, going by ``step``, that is not a value's
    mark nor Markdown's emphasis is Chinese."""
    return _HAN.fullmatch(_edge(text, at, step, _EMPHASIS + _START + _END)) is not None


def _tight(marked: str) -> str:
    """A Chinese sentence filled with marked values, the marks taken out, and without a
    catalogue's space beside a value (its emphasis included: ``**{title}** 已開始``)
    where Chinese meets Chinese: the space sets a Latin value apart (``輪到 alice 走棋``),
    but a value that begins or ends with Chinese (``紅方``, ``alice（紅方）``) stands
    against its neighbours (``輪到紅方走棋``).

    >>> _tight("輪到 \ue000紅方\ue001 走棋"), _tight("輪到 \ue000alice\ue001 走棋")
    ('輪到紅方走棋', '輪到 alice 走棋')
    >>> _tight("發起 \ue000**象棋**（每步 3 天）\ue001 挑戰")
    '發起**象棋**（每步 3 天）挑戰'
    >>> _tight("**\ue000象棋\ue001** 已開始"), _tight("**\ue000Querni\ue001** 已開始")
    ('**象棋**已開始', '**Querni** 已開始')
    """
    kept = []
    for i, c in enumerate(marked):
        if c in (_START, _END):
            continue
        touches = _edge(marked, i - 1, -1) == _END or _edge(marked, i + 1, 1) == _START
        if c == " " and touches and _han_edge(marked, i - 1, -1) \
                and _han_edge(marked, i + 1, 1):
            continue
        kept.append(c)
    return "".join(kept)


_LEADING_FIELD: Final = re.compile(r"\{(\w+)\}")
"""A pattern that starts with a placeholder (``{move}: …``): its capital is the value's."""


@dataclass(frozen=True, slots=True)
class Listing(Lazy):
    """Items joined the way the language lists things (CLDR: ``a, b and c``,
    ``a, b und c``, ``a、b和c``; with ``style="or"``: ``a, b or c``, ``a, b oder c``,
    ``a、b或c``); see :func:`listing` and :func:`alternatives`."""

    items: tuple[object, ...]
    style: ListStyle = "standard"

    def render(self, locale: str | None) -> str:
        from babel.lists import format_list

        chosen = negotiate(locale)
        said = [render_value(item, chosen) for item in self.items]
        if len(said) <= 1:
            return "".join(said)
        return format_list(said, style=self.style, locale=babel_locale(chosen))


_FULL_WIDTH = {", ": "，", "; ": "；"}
"""The separators :class:`Joined` writes with Chinese marks where the language has no
spaces between words."""


@dataclass(frozen=True, slots=True)
class Joined(Lazy):
    """Parts rendered one after the other with a fixed separator (lines of a message,
    sentences); see :func:`joined`. In Chinese, ``", "`` and ``"; "`` are written with
    its full-width marks (``，`` and ``；``)."""

    parts: tuple[object, ...]
    separator: str = " "

    def render(self, locale: str | None) -> str:
        chosen = negotiate(locale)
        said = [render_value(p, chosen) for p in self.parts]
        if _unspaced(chosen) and self.separator in _FULL_WIDTH:
            # Chinese separates clauses with its own marks (``紅方：…；黑方：…``)
            return _FULL_WIDTH[self.separator].join(said)
        if self.separator != " " or not _unspaced(chosen):
            return self.separator.join(said)
        # Chinese: sentences joined by a space stand against each other (``…。黑方先走``)
        return _tight(f"{_END} {_START}".join(said))


@dataclass(frozen=True, slots=True)
class Capitalized(Lazy):
    """Words whose first letter is a capital (a reason that starts a line); scripts
    without case are left as they are. Only the language's own words take the capital:
    a value the sentence starts with is written as it is when it is a plain string (a
    move, a point, a name, ``#3``: ``a1-a9: …`` never becomes ``A1-a9``), a command or
    a number; words again (a text, a list) take it in their turn."""

    words: object

    def render(self, locale: str | None) -> str:
        return _capital(self.words, negotiate(locale))


def _capital(words: object, chosen: str) -> str:
    """``words`` in the supported locale ``chosen`` with the capital :class:`Capitalized`
    gives them."""
    if isinstance(words, Text):
        return words._said(chosen, capital=True)
    if isinstance(words, Capitalized):
        return _capital(words.words, chosen)
    if isinstance(words, Joined) and words.parts:
        first, *rest = words.parts
        return words.separator.join([_capital(first, chosen),
                                     *(render_value(p, chosen) for p in rest)])
    if isinstance(words, Listing) and words.items:
        first, *rest = words.items
        return Listing((_Said(_capital(first, chosen)), *rest), words.style).render(chosen)
    # a plain string is notation or a name; a number, a command: all kept as written
    return render_value(words, chosen)


@dataclass(frozen=True, slots=True)
class _Said(Lazy):
    """Words already rendered for the one reader they are being rendered for."""

    said: str

    def render(self, locale: str | None) -> str:
        return self.said


@dataclass(frozen=True, slots=True)
class Decimal(Lazy):
    """A number with a fixed count of decimals in the reader's notation (``12.3`` /
    ``12,3``); see :func:`decimal`. Ratings and evaluations, never identifiers."""

    value: float
    places: int = 1
    signed: bool = False

    def render(self, locale: str | None) -> str:
        from babel.numbers import format_decimal

        digits = "0" * self.places
        pattern = f"#,##0.{digits}" if self.places else "#,##0"
        if self.signed:
            pattern = f"+{pattern};-{pattern}"
        # the sign of a rounded zero ("-0.0") would read as a loss of nothing
        value = round(self.value, self.places) + 0.0
        return format_decimal(value, format=pattern, locale=babel_locale(negotiate(locale)))


COMMAND_NAME: Final = "command name"
OPTION_NAME: Final = "option name"
CHOICE: Final = "choice"
"""The gettext contexts of the command tree's names: a command's (or group's), an
option's, a choice's (a name such as ``move`` must not share a translation with a
sentence)."""

MAX_NAME: Final = 32
MAX_CHOICE: Final = 100


def valid_name(name: str) -> bool:
    """Whether Discord accepts ``name`` as a command, option or group name: 1-32
    characters, each a letter, a digit (any script: ``\\p{L}``, ``\\p{N}``, Devanagari and
    Thai marks included), ``-`` or ``_``; and lowercase where the letter has a case.

    >>> valid_name("zug"), valid_name("Zug"), valid_name("mover-pieza"), valid_name("走棋")
    (True, False, True, True)
    >>> valid_name("a b"), valid_name("x" * 33)
    (False, False)
    """
    return 1 <= len(name) <= MAX_NAME and all(_name_char(c) for c in name) \
        and name == name.lower()


def _name_char(c: str) -> bool:
    category = unicodedata.category(c)
    if c in "-_" or category[0] in "LN":
        return True
    script = unicodedata.name(c, "")
    return category.startswith("M") and ("DEVANAGARI" in script or "THAI" in script)


def command_word(english: str, locale: str, context: str) -> str:
    """One name of the command tree (``context``: a command's, an option's or a choice's)
    as Discord shows it to a reader of ``locale``: the catalogue's, or the English one
    where the catalogue has none or one Discord would refuse (the command tree is synced
    without it, ``bot.discordapp.translator``, so Discord shows English there too).

    >>> command_word("move", "de", COMMAND_NAME), command_word("move", "en-GB", COMMAND_NAME)
    ('ziehen', 'move')
    """
    said = translations(negotiate(locale)).pgettext(context, english)
    if not said:
        return english
    if context == CHOICE:
        return said if len(said) <= MAX_CHOICE else english
    return said if valid_name(said) else english


class CommandSyntax(Protocol):
    """How commands are written where their reader types them himself, not in Discord's
    command tree (the console: ``/history #7``, ``/pause resume``): a :class:`Command`
    or an :class:`Option` rendered inside :func:`commands_written` is written by it."""

    def command(self, qualified: str, options: Sequence[tuple[str, object]],
                locale: str) -> str:
        """The command ``qualified`` (its English path) with ``options`` (English names,
        values as given) as this reader types it; ``locale``: the text's language (for
        a value's words)."""

    def option(self, english: str, locale: str) -> str:
        """The option ``english`` as this reader names it."""


T = TypeVar("T")


@contextmanager
def _scoped(var: ContextVar[T], value: T) -> Iterator[None]:
    """``var`` set to ``value`` for a ``with`` block, its value before restored after."""
    token = var.set(value)
    try:
        yield
    finally:
        var.reset(token)


_SYNTAX: ContextVar[CommandSyntax | None] = ContextVar("command_syntax", default=None)


def commands_written(syntax: CommandSyntax) -> AbstractContextManager[None]:
    """Within it, every :class:`Command` and :class:`Option` is written as ``syntax``
    says, whatever the language: the console renders every line inside it with its own
    (English commands, its arguments: ``bot.console_args.CONSOLE_SYNTAX``); Discord (and
    the web pages, read by Discord's users) render outside it, with the names each
    reader's Discord shows."""
    return _scoped(_SYNTAX, syntax)


_MENTIONS: ContextVar[Mapping[str, int] | None] = ContextVar("command_mentions",
                                                             default=None)


def command_mentions(ids: Mapping[str, int] | None) -> AbstractContextManager[None]:
    """Within it, a :class:`Command` whose path is in ``ids`` (``"move"``, ``"tournament
    create"``: a command Discord runs, never a group alone) is named by a command
    mention, ``</move:ID>``: the id Discord gave the command where the text is read.
    Every reader's Discord shows it in his own language and a click fills it in; its
    options follow in the reader's words (``</pause:ID> aktion:fortsetzen``: Discord has
    no mention of an option). ``None`` (or a command not in ``ids``): named as before,
    ``/ziehen``. The Discord adapter sets it where it writes to a server whose command
    ids it knows (``bot.discordapp.mentions``); outside it (the web pages, the logs, a
    direct message) nothing changes, and the console's own syntax
    (:func:`commands_written`) comes first.

    >>> with command_mentions({"move": 12, "tournament create": 34}):
    ...     command("move").render("de"), command("tournament create").render("de")
    ('</move:12>', '</tournament create:34>')
    """
    return _scoped(_MENTIONS, ids)


@dataclass(frozen=True, slots=True)
class Command(Lazy):
    """A slash command (and options) as its reader types it: the one way a text names a
    command, whoever reads it (build it with :func:`command`, hand it to a text as a
    placeholder's value, never write ``/move`` into a message id).

    In Discord every name (command, group, option, choice) is the one the reader's
    Discord shows, the catalogue's ``command name`` / ``option name`` / ``choice``
    (falling back to English as Discord does), in the locale the text is rendered for.
    A reply or a DM is rendered for its one reader, so it names the commands he sees. A
    post in a match's thread or a channel is read by several people, each with his own
    Discord language: it names the commands in the post's language (the server's thread
    language, which the rest of the post speaks), so a post never mixes two languages;
    a reader whose Discord speaks another shows him the same commands under other names,
    and the post's words stay in one language. The console writes them in its own
    syntax (:func:`commands_written`). Values are written as given (a number, a
    mention), an option's choice by its shown name. In a server whose command ids the
    Discord adapter knows, the command itself is Discord's mention
    (:func:`command_mentions`), which every reader's Discord shows in his own language;
    its options follow in the text's.

    >>> command("pause", action="resume").render("de")
    '/pause aktion:fortsetzen'
    >>> command("tournament create").render("en-US")
    '/tournament create'
    """

    qualified: str
    options: tuple[tuple[str, object], ...] = ()

    def render(self, locale: str | None) -> str:
        chosen = negotiate(locale)
        syntax = _SYNTAX.get()
        if syntax is not None:
            return syntax.command(self.qualified, self.options, chosen)
        shown = self.mention() or "/" + " ".join(
            command_word(name, chosen, COMMAND_NAME) for name in self.qualified.split())
        options = self.shown_options(chosen)
        return f"{shown} {options}" if options else shown

    def mention(self) -> str | None:
        """Discord's mention of the command (``</tournament create:ID>``, by its English
        path, which each reader's Discord shows in his language) where its id is known
        (:func:`command_mentions`); else None."""
        ids = _MENTIONS.get()
        if ids is None or _SYNTAX.get() is not None:
            return None
        known = ids.get(self.qualified)
        return None if known is None else f"</{self.qualified}:{known}>"

    def shown_options(self, chosen: str) -> str:
        """The options as the reader types them (``aktion:fortsetzen``), or nothing."""
        return " ".join(
            f"{command_word(name, chosen, OPTION_NAME)}:{self._value(value, chosen)}"
            for name, value in self.options)

    @staticmethod
    def _value(value: object, chosen: str) -> str:
        if isinstance(value, str):  # a choice by its shown name; other text as it is
            return command_word(value, chosen, CHOICE) if value else value
        return render_value(value, chosen)


def command(qualified: str, /, **options: object) -> Command:
    """The slash command ``qualified`` (its English path: ``"move"``, ``"puzzle
    next"``) with ``options`` (English names; values as typed) for a text to name.

    >>> command("history", match=7).render("de"), command("history", match=7).render("en-US")
    ('/verlauf partie:7', '/history match:7')
    """
    return Command(qualified, tuple(options.items()))


@dataclass(frozen=True, slots=True)
class Option(Lazy):
    """A command's option by the name its reader sees (``the `match` option``): as a
    :class:`Command` names it, in Discord the reader's Discord's name, in the console as
    its syntax does (:func:`commands_written`); see :func:`option`."""

    english: str

    def render(self, locale: str | None) -> str:
        syntax = _SYNTAX.get()
        if syntax is not None:
            return syntax.option(self.english, negotiate(locale))
        return command_word(self.english, negotiate(locale), OPTION_NAME)


def option(english: str, /) -> Option:
    """The option ``english`` (its English name) for a text to name.

    >>> option("match").render("de"), option("match").render("en-GB")
    ('partie', 'match')
    """
    return Option(english)


_PEOPLE: ContextVar[bool] = ContextVar("people_mentions", default=False)


def people_mentions(on: bool = True) -> AbstractContextManager[None]:
    """Within it (``on``), a :class:`Person` is named by Discord's mention of him,
    ``<@ID>``, which each reader's Discord shows as his name: the Discord adapter sets
    it where it writes a message's content (``bot.discordapp.mentions``), and sets it
    off for what Discord shows as plain text (a title, a footer, a button), where a
    mention would be written out. Outside it (the console, the web pages, the logs) a
    person nobody has seen the name of is named in neutral words.

    >>> with people_mentions():
    ...     person(42).render("de")
    '<@42>'
    >>> person(42).render("en-US")
    'that player'
    """
    return _scoped(_PEOPLE, on)


def _discord_markup() -> bool:
    """Whether the text being rendered is read as Discord's markup (mentions, timestamps):
    inside :func:`people_mentions` and not inside :func:`commands_written`."""
    return _PEOPLE.get() and _SYNTAX.get() is None


@dataclass(frozen=True, slots=True)
class Person(Lazy):
    """A person a text names whose name nobody has seen (``service.texts.named``): in
    Discord his mention (:func:`people_mentions`), which shows his name and pings
    nobody: a post's allowed mentions name only its audience, and a refusal is a private
    (ephemeral) reply, which only its reader sees; else "that player"."""

    user_id: int

    def render(self, locale: str | None) -> str:
        if _discord_markup():
            return f"<@{self.user_id}>"
        return _("that player").render(locale)


def person(user_id: int) -> Person:
    """The person ``user_id`` for a text to name when his name is not known."""
    return Person(user_id)


_ZONE: ContextVar[str | None] = ContextVar("reader_zone", default=None)


def moments_in(zone: str | None) -> AbstractContextManager[None]:
    """Within it, a :class:`Moment` outside Discord's markup is written in ``zone`` (an
    IANA name already checked; None: UTC): the console sets its reader's own time zone,
    the one of the person it acts as.

    >>> at = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)
    >>> with moments_in("Europe/Berlin"):
    ...     moment(at).render("de"), moment(at.replace(hour=3)).render("de")
    ('2026-03-29 01:30 CET', '2026-03-29 05:30 CEST')
    >>> with moments_in("Pacific/Chatham"):
    ...     moment(at).render("en-US")
    '2026-03-29 14:15 UTC+13:45'
    """
    return _scoped(_ZONE, zone)


@dataclass(frozen=True, slots=True)
class Moment(Lazy):
    """An instant a text names (a pause's end, a deadline): where Discord's markup is
    read (:func:`people_mentions`: a message's content, a reply), Discord's timestamp
    ``<t:…:f>``, which each reader's Discord shows in his own time zone and language;
    elsewhere (the console, the web pages, the logs, a plain field) its date and time in
    the reader's zone where it is known (:func:`moments_in`), else in UTC, saying which.
    Build it with :func:`moment`."""

    when: datetime

    def render(self, locale: str | None) -> str:
        if _discord_markup():
            return f"<t:{int(self.when.timestamp())}:f>"
        zone = _ZONE.get()
        try:  # (a stored name this machine does not know: UTC, saying so)
            local = self.when.astimezone(UTC if zone is None else ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError, OSError):
            local = self.when.astimezone(UTC)
        name = local.tzname() or ""
        if name and name[0] in "+-":  # a zone without letters for its time: UTC+05:45, UTC-03
            name = "UTC" + (name if len(name) < 4 else f"{name[:3]}:{name[3:]}")
        return f"{local:%Y-%m-%d %H:%M} {name}"


def moment(when: datetime) -> Moment:
    """The instant ``when`` for a text to name, in each reader's own time where his
    client can show it (:class:`Moment`).

    >>> at = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)
    >>> moment(at).render("de")
    '2026-03-29 00:30 UTC'
    >>> with people_mentions():
    ...     moment(at).render("de")
    '<t:1774744200:f>'
    """
    return Moment(when)


def decimal(value: float, places: int = 1, *, signed: bool = False) -> Decimal:
    """``value`` with ``places`` decimals as the reader writes numbers.

    >>> decimal(12.34).render("en-US"), decimal(12.34).render("de")
    ('12.3', '12,3')
    >>> decimal(1.76, signed=True).render("sv-SE"), decimal(-0.01, signed=True).render("en-US")
    ('+1,8', '+0.0')
    """
    return Decimal(float(value), places, signed)


def capitalized(words: object) -> Capitalized:
    """``words`` starting with a capital letter.

    >>> capitalized(_("aborted: no move in time")).render("en-US")
    'Aborted: no move in time'
    """
    return Capitalized(words)


def listing(items: Iterable[object]) -> Listing:
    """A list in the reader's words.

    >>> listing(["alice", "bob", "carol"]).render("de")
    'alice, bob und carol'
    >>> listing(["alice"]).render("zh-CN"), listing(["a", "b"]).render("zh-CN")
    ('alice', 'a和b')
    """
    return Listing(tuple(items))


def alternatives(items: Iterable[object]) -> Listing:
    """A list of choices in the reader's words (``a, b or c``).

    >>> alternatives(["c3-c4", "c3xe5"]).render("de"), alternatives(["a"]).render("sv-SE")
    ('c3-c4 oder c3xe5', 'a')
    """
    return Listing(tuple(items), "or")


def joined(*parts: object, separator: str = " ") -> Joined:
    """Texts (or plain strings) rendered and joined: a message made of sentences.

    >>> joined(_("Draw."), "♟", separator=" / ").render("en-US")
    'Draw. / ♟'
    >>> joined("6", "13", separator=", ").render("zh-TW")
    '6，13'
    """
    return Joined(tuple(p for p in parts if p is not None and p != ""), separator)


def render_value(value: object, locale: str) -> str:
    """One placeholder's value in ``locale``: texts are rendered, numbers formatted
    by the locale's rules (CLDR through Babel), anything else as it is."""
    if isinstance(value, Lazy):
        return value.render(locale)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        # Tablero's whole numbers are ids, plies, counts and points: never large enough to
        # want grouping, and a match number must read the same in every language
        return str(value)
    if isinstance(value, float):
        from babel.numbers import format_decimal

        return format_decimal(value, locale=babel_locale(negotiate(locale)))
    return str(value)


def _(msgid: str, /, **params: object) -> Text:
    """Mark ``msgid`` (an English sentence) for translation and keep its values.

    >>> _("Hello").render("de") in ("Hello", "Hallo")
    True
    """
    return Text(msgid, params)


def _n(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A counted sentence: the language's plural rule picks the form; ``{count}`` is filled.

    >>> _n("{count} move", "{count} moves", 1).render("en-US")
    '1 move'
    """
    return Text(singular, params, plural, count)


def to_data(words: object) -> object:
    """``words`` as JSON-ready data (texts kept lazy through a store, such as the outbox):
    strings and numbers as they are, texts as objects :func:`from_data` reads back.

    >>> from_data(to_data(_("{n} moves", n=listing(["a", _("Red")])))).render("en-US")
    'a and Red moves'
    """
    if isinstance(words, Text):
        data: dict[str, object] = {"msgid": words.msgid,
                                   "params": {k: to_data(v) for k, v in words.params.items()}}
        if words.plural is not None:
            data.update(plural=words.plural, count=words.count)
        return data
    if isinstance(words, Listing):
        if words.style != "standard":
            return {"listing": [to_data(x) for x in words.items], "style": words.style}
        return {"listing": [to_data(x) for x in words.items]}
    if isinstance(words, Joined):
        return {"joined": [to_data(x) for x in words.parts], "separator": words.separator}
    if isinstance(words, Capitalized):
        return {"capitalized": to_data(words.words)}
    if isinstance(words, Decimal):
        return {"decimal": words.value, "places": words.places, "signed": words.signed}
    if isinstance(words, Command):
        return {"command": words.qualified,
                "options": [[name, to_data(value)] for name, value in words.options]}
    if isinstance(words, Option):
        return {"option": words.english}
    if isinstance(words, Person):
        return {"person": words.user_id}
    if isinstance(words, Moment):
        return {"moment": words.when.isoformat()}
    if words is None or isinstance(words, str | int | float | bool):
        return words
    return str(words)


def from_data(data: object) -> Words:
    """Words back from :func:`to_data` (a plain string stays a string)."""
    if isinstance(data, dict):
        if "msgid" in data:
            params = data.get("params") or {}
            count = data.get("count")
            return Text(str(data["msgid"]),
                        {str(k): _value_of(v) for k, v in dict(params).items()},
                        str(data["plural"]) if data.get("plural") is not None else None,
                        int(count) if isinstance(count, int) else None)
        if "listing" in data:
            style: ListStyle = "or" if data.get("style") == "or" else "standard"
            return Listing(tuple(_value_of(x) for x in data["listing"]), style)
        if "joined" in data:
            return Joined(tuple(_value_of(x) for x in data["joined"]),
                          str(data.get("separator", " ")))
        if "capitalized" in data:
            return Capitalized(_value_of(data["capitalized"]))
        if "decimal" in data:
            return Decimal(float(data["decimal"]), int(data.get("places", 1)),
                           bool(data.get("signed", False)))
        if "command" in data:
            return Command(str(data["command"]), tuple(
                (str(name), _value_of(value)) for name, value in data.get("options", [])))
        if "option" in data:
            return Option(str(data["option"]))
        if "person" in data and isinstance(data["person"], int):
            return Person(data["person"])
        if "moment" in data and isinstance(data["moment"], str):
            return Moment(datetime.fromisoformat(data["moment"]))
    return "" if data is None else str(data)


def _value_of(data: object) -> object:
    """A placeholder's value back from data: numbers stay numbers, and a yes or no
    stays one (a command's option given as True is written by each client its own way:
    ``/web revoke`` in the console, never the text ``revoke:True``).

    >>> _value_of(True), _value_of(3), _value_of(None)
    (True, 3, '')
    """
    if isinstance(data, bool | int | float):
        return data
    return from_data(data)


def render(text: Lazy | str, locale: str | None) -> str:
    """A text in ``locale``; a plain string (a name, a move, notation) as it is."""
    return text.render(locale) if isinstance(text, Lazy) else text


Words = Lazy | str
"""What an edge may be handed to show: lazy words, or a plain string that needs no
translation (a name, a move, notation, a mention)."""
