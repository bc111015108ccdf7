"""The translation workflow: drafts, states and staleness, exchange with Weblate and Poedit.

The stage after the linter.  A card goes from *missing* to *draft*
(:mod:`.draft`: what the glossary can fill, the rest kept in English), to
*translated*, to *reviewed* (:mod:`.states`); when its English card changes it is
*stale*, and :mod:`.history` finds in git what the English said before.  :mod:`.po`
carries the translatable fields to gettext PO and XLIFF files and back.

    from translator.workflow import states
    for state in states.library_states(library, ["fr"]):
        print(state.card, state.state, state.changed)
"""
