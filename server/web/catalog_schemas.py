"""Marshmallow schemas of the host's descriptions of itself: the catalog of games
(`GET /api/catalog`: variants, options, presets, colours, levels, formats, stats), `/api/health`
and `/api/invite`. Part of `server.web.schemas`, which names them all.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields


class Level(ma.Schema):
    number = fields.Integer()
    name = fields.String()
    description = fields.String()
    seconds = fields.Float(metadata={"description": "about how long a move takes"})
    rating = fields.Float(metadata={"description": "the ladder's fixed rating of the level, "
                                    "if the game sets one"})


class OptionSpec(ma.Schema):
    name = fields.String()
    label = fields.String()
    default = fields.Raw()
    kind = fields.String(metadata={"enum": ["int", "bool", "choice", "strings", "text"]})
    description = fields.String()
    minimum = fields.Integer(allow_none=True)
    maximum = fields.Integer(allow_none=True)
    choices = fields.List(fields.String())
    computer_default = fields.Raw(metadata={
        "description": "the value with a computer at the table, when it is not set"})
    rematch = fields.Boolean(metadata={
        "description": "false: a rematch does not carry this option over (it takes its default)"})
    placeholder = fields.String(metadata={
        "description": "the value's format, shown in an empty input"})
    editor = fields.String(metadata={
        "description": "board: the game's board module edits the value too (Corners' set-up "
                       "position, placed on a board)"})


class PresetSpec(ma.Schema):
    label = fields.String()
    values = fields.Dict(keys=fields.String(), metadata={
        "description": "option values (some of the variant's options)"})
    description = fields.String()


class ColourSpec(ma.Schema):
    fill = fields.String(metadata={"description": "the colour's CSS fill"})
    ink = fields.String(metadata={"description": "the text colour on the fill"})
    mark = fields.String(metadata={"description": "the letter or sign on its chip"})


class VariantSpec(ma.Schema):
    name = fields.String()
    label = fields.String()
    seats = fields.List(fields.Integer(), metadata={"description": "seat counts allowed"})
    colours = fields.List(fields.String(), metadata={"description": "seat colours in order"})
    rated = fields.Boolean()
    options = fields.List(fields.Nested(OptionSpec))
    description = fields.String()
    leaving = fields.String(metadata={
        "description": "what leaving means in this variant, when the game says (else empty)"})
    presets = fields.List(fields.Nested(PresetSpec), metadata={
        "description": "sets of option values chosen with one tap (Corners' clocks)"})
    presets_label = fields.String(metadata={"description": "what the presets set (\"Clock\")"})


class FormatSpec(ma.Schema):
    ext = fields.String()
    mimetype = fields.String()
    label = fields.String()


class StatSpec(ma.Schema):
    key = fields.String()
    label = fields.String()


class CatalogGame(ma.Schema):
    game = fields.String()
    title = fields.String()
    tagline = fields.String(metadata={"description": "what the game is, in a few words"})
    summary = fields.String(metadata={"description": "the game in one sentence, for the "
                                                     "lobby's card"})
    palette = fields.Dict(keys=fields.String(), values=fields.Nested(ColourSpec), metadata={
        "description": "each seat colour's look: fill, ink and chip mark"})
    variants = fields.List(fields.Nested(VariantSpec))
    levels = fields.List(fields.Nested(Level))
    formats = fields.List(fields.Nested(FormatSpec),
                          metadata={"description": "records besides replay.json"})
    stats = fields.List(fields.Nested(StatSpec))
    legal_query = fields.String(allow_none=True,
                                metadata={"description": "the legal list's query parameter"})
    actions = fields.List(fields.String(), metadata={
        "description": "what a seat may do besides moving, taking back and leaving"})
    hint = fields.Boolean()
    # "pass" is a Python keyword: the field is named by data_key
    passing = fields.Boolean(data_key="pass", attribute="pass", metadata={
        "description": "whether a seat may pass (a game without passing has no Pass button)"})
    board_url = fields.String(metadata={"description": "the game's client board module"})
    thumb_url = fields.String(allow_none=True, metadata={
        "description": "the module drawing the game's picture for the lobby (null: none)"})
    howto_url = fields.String(allow_none=True, metadata={
        "description": "the module holding the game's how-to-play guide (null: none)"})


class Catalog(ma.Schema):
    games = fields.List(fields.Nested(CatalogGame))


class Health(ma.Schema):
    ok = fields.Boolean()
    version = fields.String()
    games = fields.Integer()
    levels = fields.List(fields.Nested(Level), metadata={"description": "computer levels"})


class Invite(ma.Schema):
    url = fields.String(metadata={"description": "the LAN IP address to open, with the game"})
    svg = fields.String(metadata={"description": "a QR code of `url` as an SVG document"})
