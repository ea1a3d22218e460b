"""Corner Claim's rules, pure: no I/O, no threads, no web framework.

`engine.core` holds the game-agnostic parts (events, log, fold, the rules interface);
`engine.cornerclaim` is Corner Claim's own rules module built on `engine.pieces`,
`engine.board` and `engine.notation`.
"""
