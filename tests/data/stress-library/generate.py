"""Write the stress library: cards a tough user would print, in English, French and Esperanto.

    .venv/bin/python tests/data/stress-library/generate.py            # write the files
    .venv/bin/python tests/data/stress-library/generate.py --check    # are they up to date?

The cards exist to break the print layout (``translator build``): names, second name
lines, type lines and rule texts of growing length up to lengths no font size can hold,
every symbol family at a paragraph's start, drop caps on paragraphs of one to six
lines, loyalty 0 to 3, costs and stats of one and two digits, long flavour, a long
footer.  ``tests/typeset/test_print_stress.py`` builds them and checks the PDFs; README.md says
what each card is for.  The output is deterministic: the same files on every run, so
the committed files are what this script writes (``--check`` says so).

Translations follow the community's conventions, as the sample does: French with
« » and no-break spaces before ; : ! ? (U+00A0), the typographic apostrophe,
*tutoiement*, *joueureuse*, key noun groups in italics, subtypes and abilities in
simple bold; Esperanto with «» unspaced, the Leksikono's terms and the abilities
list's names.  The fingerprint in ``source:`` is the library's own
(:func:`translator.cards.source_fingerprint`), so no translation is stale.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ART = "art/stress.png"
BR = "\\\n"  # a line break inside a paragraph (card-text dialect)
EMPTY = "\\"  # a paragraph holding only a line break: an empty paragraph


@dataclass
class Version:
    """One language of a card: what a translator writes (name lines, type line, text)."""

    name: str
    text: list[str]
    name2: str | None = None
    subtype: str | None = None
    info: str | None = None
    # Lint findings judged wrong for this card: (codes, the reason, as a comment).
    ignore: tuple[tuple[str, ...], str] | None = None


@dataclass
class Card:
    """A card: its slug, what the English card alone sets, and its three versions."""

    slug: str
    faction: str
    type: str
    cost: int | str
    loyalty: int
    en: Version
    fr: Version
    eo: Version
    attack: int | None = None
    defense: int | None = None
    notes: list[str] = field(default_factory=list)


def french(text: str) -> str:
    """French typography, so the card data can be typed plainly: ’, no-break spaces.

    A no-break space (U+00A0) before ; ! ? » and a colon that ends a clause, after «;
    the typographic apostrophe.  Symbol codes (``payer :g1: pour``) keep their colons.
    """
    text = text.replace("'", "\u2019")
    text = text.replace("« ", "«\u00a0").replace(" »", "\u00a0»")
    text = re.sub(r" ([;!?])", "\u00a0\\1", text)
    return re.sub(r" :(?=\s|$)", "\u00a0:", text)


def fr(
    name: str,
    text: list[str],
    name2: str | None = None,
    subtype: str | None = None,
    info: str | None = None,
    ignore: tuple[tuple[str, ...], str] | None = None,
) -> Version:
    """A French version, its typography applied (see :func:`french`)."""
    return Version(
        french(name),
        [french(p) for p in text],
        french(name2) if name2 else None,
        subtype,
        french(info) if info else None,
        ignore,
    )


def en(
    name: str,
    text: list[str],
    name2: str | None = None,
    subtype: str | None = None,
    info: str | None = None,
    ignore: tuple[tuple[str, ...], str] | None = None,
) -> Version:
    """An English (or Esperanto) version."""
    return Version(name, text, name2, subtype, info, ignore)


eo = en  # Esperanto needs no rewriting: «» unspaced, as typed


# Ability definitions (name line, then the reminder in italics), from the abilities
# lists of glossaries/*/abilities.yaml, with the Lexique's *marqueur* for counters.
RANGED = (
    en("", ["***Ranged***" + BR + "*I can defend against creatures with flying.*"]),
    fr("", ["***Longue portée***" + BR + "*Je peux bloquer les créatures volantes.*"]),
    eo(
        "",
        ["***Distancfrapanto***" + BR + "*Mi povas defendi kontraŭ estaĵoj kiuj estas flugantoj.*"],
    ),
)
FLYING = (
    en(
        "", ["***Flying***" + BR + "*Only creatures with flying and ranged can defend against me.*"]
    ),
    fr(
        "",
        [
            "***Vol***" + BR + "*Seules les créatures dotées du vol ou de la longue "
            "portée peuvent me bloquer.*"
        ],
    ),
    eo(
        "",
        [
            "***Fluganto***"
            + BR
            + "*Nur estaĵoj flugantaj aŭ distancfrapantaj povas defendi kontraŭ mi.*"
        ],
    ),
)
UNIQUE = (
    en(
        "",
        ["***Unique***" + BR + "*No player can control more than one of this unit at any time.*"],
    ),
    fr(
        "",
        [
            "***Unique***" + BR + "*Une joueureuse ne peut pas contrôler plus d'un "
            "exemplaire de cette carte à un instant donné.*"
        ],
    ),
    eo("", ["***Unika***" + BR + "*Neniu ludanto povas regi pli ol unu da ĉi tiu unuo iam ajn.*"]),
)


def ability(which: tuple[Version, Version, Version], lang: str) -> str:
    """The definition paragraph of one of the abilities above, in ``lang``."""
    return which[("en", "fr", "eo").index(lang)].text[0]


CARDS: list[Card] = [
    # ---- Creatures: one per faction --------------------------------------------------
    Card(
        "imp",
        "Red Banner",
        "Creature",
        1,
        1,
        attack=1,
        defense=1,
        notes=["the shortest name and type line; a one-line text (an ability alone)"],
        en=en("Imp", ["***Sudden***"], subtype="Imp"),
        fr=fr("Gobelin", ["***Brutal***"], subtype="Gobelin"),
        eo=eo("Gnomo", ["***Subita***"], subtype="Gnomo"),
    ),
    Card(
        "moss-troll",
        "Gaian",
        "Creature",
        4,
        2,
        attack=4,
        defense=5,
        notes=["a drop cap on a two-line paragraph, flavour"],
        en=en(
            "Moss Troll",
            [
                ":W:hen I come into play, put one +1/+1 counter on target ***Gaian*** creature.",
                '*"Moss grows on everything that stands still. Trolls never hurry."*',
            ],
            subtype="Troll",
        ),
        fr=fr(
            "Troll des mousses",
            [
                ":Q:uand j'entre en jeu, mets un marqueur +1/+1 sur la *créature* **gaïenne** "
                "ciblée.",
                "*« La mousse pousse sur tout ce qui reste immobile. Les trolls ne se pressent "
                "jamais. »*",
            ],
            subtype="Troll",
        ),
        eo=eo(
            "Muskotrolo",
            [
                ":K:iam mi venas en ludon, metu unu +1/+1 indikilon sur celan estaĵon de "
                "***Geo***.",
                "*«Musko kreskas sur ĉio, kio restas senmova. Troloj neniam rapidas.»*",
            ],
            subtype="Trolo",
        ),
    ),
    Card(
        "hollow-choir-herald",
        "Dark Legion",
        "Creature",
        12,
        3,
        attack=10,
        defense=12,
        notes=[
            "a long name with a second name line; a three-word subtype; loyalty 3; "
            "two-digit cost and stats; a drop cap on a four-line paragraph"
        ],
        en=en(
            "Herald of the Hollow Bone Choir",
            [
                ":E:ach time a ***creature*** dies, put one +1/+0 counter on me. At the end "
                "of your turn, you may remove three counters to draw a card."
            ],
            name2="who sings the dead awake",
            subtype="Undead Skeleton Wizard",
        ),
        fr=fr(
            "Héraut du chœur des os creux",
            [
                ":C:haque fois qu'une *créature* meurt, mets un marqueur +1/+0 sur moi. À la "
                "fin de ton tour, tu peux retirer trois marqueurs pour piocher une carte."
            ],
            name2="qui chante l'éveil des morts",
            subtype="Sorcier, squelette, mort-vivant",
        ),
        eo=eo(
            "Heroldo de la kavaosta ĥoro",
            [
                ":Ĉ:iufoje kiam ***estaĵo*** mortas, metu unu +1/+0 indikilon sur min. Je la "
                "fino de via vico, vi povas forigi tri indikilojn por eltiri karton."
            ],
            name2="kiu vekas la mortintojn per kanto",
            subtype="Malmortulo Skeleto Sorĉisto",
        ),
    ),
    Card(
        "harbor-captain",
        "House of Nobles",
        "Creature",
        5,
        2,
        attack=3,
        defense=4,
        notes=[
            "a short name with a longer second name line; two ability definitions and a large mark"
        ],
        en=en(
            "Captain",
            [
                "***Discount Human***"
                + BR
                + "*I cost one resource less for each kind of Human you control.*",
                ability(UNIQUE, "en"),
                ":m: Target ***player*** draws one card.",
            ],
            name2="of the Saltmere Harbor Watch",
            subtype="Human Lord",
        ),
        fr=fr(
            "Capitaine",
            [
                "***Rabais humain***" + BR + "*Je coûte une ressource de moins pour chaque type "
                "humain différent que tu contrôles.*",
                ability(UNIQUE, "fr"),
                ":m: La *joueureuse ciblée* pioche une carte.",
            ],
            name2="de la garde du port de Salmère",
            subtype="Seigneur, humain",
            ignore=(("FR301",), "FR301: Salmère is a place name (the sample's Saltmere)."),
        ),
        eo=eo(
            "Kapitano",
            [
                "***Rabatita homo***"
                + BR
                + "*Mi kostas unu rimedon malpli por ĉiu homo, kiun vi regas.*",
                ability(UNIQUE, "eo"),
                ":m: Cela ***ludanto*** eltiras unu karton.",
            ],
            name2="de la havena gardistaro de Salmarĉo",
            subtype="Homo Sinjoro",
            ignore=(
                ("TR404",),
                "TR404: the Esperanto abilities list writes « por ĉiu homo vi "
                "regas » (Rabatita),\nwithout the relative « kiun ».",
            ),
        ),
    ),
    Card(
        "seventh-legion-vexillary",
        "The Empire",
        "Creature",
        6,
        2,
        attack=4,
        defense=6,
        notes=["*near the limit*: a long name (about 8 pt); a four-word subtype"],
        en=en(
            "Vexillary of the Seventh Iron Legion",
            [
                "***Soldier Battle Scream 1***"
                + BR
                + "*When I attack, all other attacking Soldier creatures get +1/+0.*",
                "***Bodyguard 2***" + BR + "*Each turn, I may divert up to 2 damage from target "
                "creature you control and put that damage on myself instead.*",
            ],
            subtype="Human Knight Soldier Leader",
        ),
        fr=fr(
            "Vexillaire de la septième légion de fer",
            [
                "***Cri de guerre soldat 1***" + BR + "*Quand j'attaque, toutes les autres "
                "créatures soldats attaquantes gagnent +1/+0.*",
                "***Garde du corps 2***" + BR + "*Je peux endurer jusqu'à 2 dégâts à la place "
                "de la créature ciblée que tu contrôles pour la protéger.*",
            ],
            subtype="Leader, soldat, chevalier, humain",
        ),
        eo=eo(
            "Standardisto de la sepa fera legio",
            [
                "***Soldat-Batalkrianto 1***"
                + BR
                + "*Kiam mi atakas, ĉiuj aliaj atakantaj soldataj estaĵoj akiras +1/+0.*",
                "***Korpogardisto 2***" + BR + "*Ĉiun vicon, mi povas deturni ĝis 2 damaĝon el "
                "cela estaĵo, kiun vi regas, kaj anstataŭe meti tiun damaĝon sur min.*",
            ],
            subtype="Homo Kavaliro Soldato Estro",
        ),
    ),
    Card(
        "wandering-tinker",
        "None",
        "Creature",
        3,
        0,
        attack=2,
        defense=3,
        notes=["*near the limit* in French: a text of medium length, shrunk; a cypher disc inline"],
        en=en(
            "Wandering Tinker",
            [
                "***Travel***" + BR + "*I'm not marked for moving.*",
                ":W:hen I move into a ***city***, you may pay :g1: to draw one card. If that "
                "city has three or more residents, draw two cards instead, then discard one "
                "card.",
                "At the end of your turn, if I did not move this turn, put one ***Gear*** "
                "token into your ***army***, marked.",
                '*"Every road leads somewhere. Mine lead to customers."*',
            ],
            subtype="Gear",
        ),
        fr=fr(
            "Rétameur errant",
            [
                "***Voyageur***" + BR + "*Je ne suis pas engagé quand je me déplace.*",
                ":Q:uand je me déplace dans une *cité*, tu peux payer :g1: pour piocher une "
                "carte. Si cette *cité* compte au moins trois résidents, pioche plutôt deux "
                "cartes, puis défausse une carte.",
                "À la fin de ton tour, si je ne me suis pas déplacé ce tour-ci, mets un jeton "
                "**engin** dans *ton armée*, engagé.",
                "*« Chaque route mène quelque part. Les miennes mènent aux clients. »*",
            ],
            subtype="Engin",
            ignore=(
                ("TR404",),
                "TR404: the French abilities list writes « engagée » "
                "(Voyageur); this rétameur is\nmasculine.",
            ),
        ),
        eo=eo(
            "Vaganta ladisto",
            [
                "***Vojaĝanto***" + BR + "*Mi ne estas markigita por moviĝi.*",
                ":K:iam mi moviĝas en ***urbon***, vi povas pagi :g1: por eltiri unu karton. "
                "Se tiu urbo havas almenaŭ tri loĝantojn, anstataŭe eltiru du kartojn, poste "
                "forĵetu unu karton.",
                "Je la fino de via vico, se mi ne moviĝis dum ĉi tiu vico, metu unu ĵetonon "
                "***Maŝino*** en vian ***armeon***, markitan.",
                "*«Ĉiu vojo kondukas ien. Miaj kondukas al klientoj.»*",
            ],
            subtype="Maŝino",
        ),
    ),
    # ---- Cities ------------------------------------------------------------------------
    Card(
        "fort",
        "The Empire",
        "City",
        0,
        1,
        defense=9,
        notes=[
            "the shortest name; the subtype equal to the type (as Aminduna imports "
            "cities); loyalty 1"
        ],
        en=en("Fort", [":m1: Your ***Soldiers*** in this ***city*** get +1/+0."], subtype="City"),
        fr=fr("Fortin", [":m1: Tes **soldats** dans cette *cité* gagnent +1/+0."], subtype="Cité"),
        eo=eo(
            "Fortikaĵo",
            [":m1: Viaj ***soldatoj*** en ĉi tiu ***urbo*** akiras +1/+0."],
            subtype="Urbo",
        ),
    ),
    Card(
        "thornwall",
        "Gaian",
        "City",
        0,
        2,
        defense=14,
        notes=[
            "the subtype equal to the type; loyalty 2; large marks :m: and :m3:, "
            "a column mark :mc: over two lines"
        ],
        en=en(
            "Thornwall",
            [
                ":m: Target ***creature*** in this ***city*** gets +0/+2 until the end of the "
                "turn.",
                ":m3: Put one ***Flower*** token into this ***city***.",
                ":mc: Target ***player*** draws one card."
                + BR
                + "Use this only if a ***Gaian*** creature resides in this city.",
            ],
            subtype="City",
        ),
        fr=fr(
            "Mur de ronces",
            [
                ":m: La *créature ciblée* dans cette *cité* gagne +0/+2 jusqu'à la fin du tour.",
                ":m3: Mets un jeton **fleur** dans cette *cité*.",
                ":mc: La *joueureuse ciblée* pioche une carte."
                + BR
                + "N'utilise ceci que si une créature **gaïenne** réside dans cette *cité*.",
            ],
            subtype="Cité",
        ),
        eo=eo(
            "Dornomuro",
            [
                ":m: Cela ***estaĵo*** en ĉi tiu ***urbo*** akiras +0/+2 ĝis la fino de la vico.",
                ":m3: Metu unu ĵetonon ***Floro*** en ĉi tiun ***urbon***.",
                ":mc: Cela ***ludanto*** eltiras unu karton."
                + BR
                + "Uzu tion nur se estaĵo de ***Geo*** loĝas en ĉi tiu urbo.",
            ],
            subtype="Urbo",
        ),
    ),
    Card(
        "necropolis",
        "Dark Legion",
        "City",
        0,
        3,
        defense=18,
        notes=[
            "a city with loyalty 3 and a two-digit defense; :mt: and :m2:; *near the "
            "limit*: the French name (about 8.4 pt)"
        ],
        en=en(
            "Necropolis of Silent Graves",
            [
                ":mt: Put T +1/+1 counters on target ***Undead*** creature in this ***city***, "
                "where T is the number of cities you control.",
                ":m2: Return target ***Undead*** creature card from your ***graveyard*** to "
                "your hand.",
                '*"Here even the silence is buried."*',
            ],
        ),
        fr=fr(
            "Nécropole des tombes silencieuses",
            [
                ":mt: Mets T marqueurs +1/+1 sur le **mort-vivant** ciblé dans cette *cité*, "
                "où T est le nombre de *cités* que tu contrôles.",
                ":m2: Renvoie la carte de *créature* **mort-vivant** ciblée de ton "
                "*cimetière* dans "
                "ta *main*.",
                "*« Ici, même le silence est enterré. »*",
            ],
        ),
        eo=eo(
            "Nekropolo de silentaj tomboj",
            [
                ":mt: Metu T +1/+1 indikilojn sur celan ***malmortulon*** en ĉi tiu ***urbo***, "
                "kie T estas la nombro de urboj, kiujn vi regas.",
                ":m2: Revenigu celan karton de ***malmortula*** estaĵo el via ***tombejo*** al via "
                "mano.",
                "*«Ĉi tie eĉ la silento estas entombigita.»*",
            ],
        ),
    ),
    Card(
        "red-keep",
        "Red Banner",
        "City",
        0,
        1,
        defense=21,
        notes=[":mx: and :mi: at a paragraph's start"],
        en=en(
            "Red Keep",
            [
                ":mx: Deal X damage to target attacking ***creature***, where X is the number "
                "of ***Orcs*** in this ***city***.",
                ":mi: Target ***Orc*** in this city gets +2/+0 until the end of the turn.",
            ],
        ),
        fr=fr(
            "Donjon rouge",
            [
                ":mx: Inflige X dégâts à la *créature attaquante ciblée*, où X est le nombre "
                "d'**orcs** dans cette *cité*.",
                ":mi: L'**orc** ciblé dans cette *cité* gagne +2/+0 jusqu'à la fin du tour.",
            ],
        ),
        eo=eo(
            "Ruĝa turo",
            [
                ":mx: Kaŭzu X damaĝon al cela atakanta ***estaĵo***, kie X estas la nombro de "
                "***orkoj*** en ĉi tiu ***urbo***.",
                ":mi: Cela ***orko*** en ĉi tiu urbo akiras +2/+0 ĝis la fino de la vico.",
            ],
        ),
    ),
    Card(
        "noble-quarter",
        "House of Nobles",
        "City",
        0,
        3,
        defense=11,
        notes=["the subtype equal to the type; :ma:, and a column mark :mic: over three lines"],
        en=en(
            "Noble Quarter",
            [
                ":ma: Your ***creatures*** in this ***city*** get +A/+0 until the end of the "
                "turn, where A is the number of cards in your hand.",
                ":mic: Each ***player*** draws one card."
                + BR
                + "Use this at most once each turn."
                + BR
                + "Use this only if you control three or more cities.",
            ],
            subtype="City",
        ),
        fr=fr(
            "Quartier des nobles",
            [
                ":ma: Tes *créatures* dans cette *cité* gagnent +A/+0 jusqu'à la fin du tour, "
                "où A est le nombre de cartes dans ta *main*.",
                ":mic: Chaque *joueureuse* pioche une carte."
                + BR
                + "Utilise ceci au plus une fois à chaque tour."
                + BR
                + "N'utilise ceci que si tu contrôles au moins trois *cités*.",
            ],
            subtype="Cité",
        ),
        eo=eo(
            "Nobela kvartalo",
            [
                ":ma: Viaj ***estaĵoj*** en ĉi tiu ***urbo*** akiras +A/+0 ĝis la fino de la "
                "vico, kie A estas la nombro de kartoj en via mano.",
                ":mic: Ĉiu ***ludanto*** eltiras unu karton."
                + BR
                + "Uzu tion maksimume unu fojon en ĉiu vico."
                + BR
                + "Uzu tion nur se vi regas almenaŭ tri urbojn.",
            ],
            subtype="Urbo",
        ),
    ),
    Card(
        "crossroads",
        "None",
        "City",
        0,
        0,
        defense=7,
        notes=["cypher discs :g2:, :gx:, :g0: at a paragraph's start; loyalty 0"],
        en=en(
            "Crossroads",
            [
                ":g2: Move target ***creature*** you control into this ***city***.",
                ":gx: Target ***player*** discards X cards.",
                ":g0: Look at the top card of your ***deck***.",
            ],
        ),
        fr=fr(
            "Carrefour",
            [
                ":g2: Déplace la *créature ciblée* que tu contrôles dans cette *cité*.",
                ":gx: La *joueureuse ciblée* défausse X cartes.",
                ":g0: Regarde la carte du dessus de ton *deck*.",
            ],
        ),
        eo=eo(
            "Vojkruciĝo",
            [
                ":g2: Movigu celan ***estaĵon***, kiun vi regas, en ĉi tiun ***urbon***.",
                ":gx: Cela ***ludanto*** forĵetas X kartojn.",
                ":g0: Rigardu la supran karton de via ***kartaro***.",
            ],
        ),
    ),
    # ---- Events ------------------------------------------------------------------------
    Card(
        "ambush",
        "Red Banner",
        "Event",
        1,
        1,
        notes=["a one-line text with a drop cap (a float taller than its paragraph)"],
        en=en("Ambush", [":D:eal 1 damage to target ***creature***."]),
        fr=fr("Embuscade", [":I:nflige 1 dégât à la *créature ciblée*."]),
        eo=eo("Embusko", [":K:aŭzu 1 damaĝon al cela ***estaĵo***."]),
    ),
    Card(
        "sudden-thaw",
        "Gaian",
        "Event",
        2,
        1,
        notes=["a drop cap on a four-line paragraph"],
        en=en(
            "Sudden Thaw",
            [
                ":U:ntil the end of the turn, every ***creature*** in target ***city*** gets "
                "+1/+1 and gains ***Travel***. If that city is yours, draw one card and put "
                "one ***Flower*** token into it."
            ],
        ),
        fr=fr(
            "Dégel soudain",
            [
                ":J:usqu'à la fin du tour, chaque *créature* dans la *cité ciblée* gagne +1/+1 "
                "et acquiert **voyageur**. Si cette *cité* est la tienne, pioche une carte et "
                "mets-y un jeton **fleur**."
            ],
        ),
        eo=eo(
            "Subita degelo",
            [
                ":Ĝ:is la fino de la vico, ĉiu ***estaĵo*** en cela ***urbo*** akiras +1/+1 kaj "
                "gajnas la kapablon ***Vojaĝanto***. Se tiu urbo estas via, eltiru unu karton "
                "kaj metu unu ĵetonon ***Floro*** en ĝin."
            ],
        ),
    ),
    Card(
        "grave-call",
        "Dark Legion",
        "Event",
        3,
        2,
        notes=["cypher discs :g3:, :gt:, :g9: at a paragraph's start"],
        en=en(
            "Grave Call",
            [
                ":g3: Return target ***creature*** card from your ***graveyard*** to your hand.",
                ":gt: Put T ***Undead Skeleton*** tokens into your ***army***, marked, where T "
                "is the number of cities you control.",
                ":g9: Put every ***creature*** card from your ***graveyard*** into your "
                "***army***.",
            ],
        ),
        fr=fr(
            "Appel de la tombe",
            [
                ":g3: Renvoie la carte de *créature ciblée* de ton *cimetière* dans ta *main*.",
                ":gt: Mets T jetons **squelette mort-vivant** dans *ton armée*, engagés, où T "
                "est le nombre de *cités* que tu contrôles.",
                ":g9: Mets toutes les cartes de *créature* de ton *cimetière* dans *ton armée*.",
            ],
        ),
        eo=eo(
            "Tomba voko",
            [
                ":g3: Revenigu celan karton de ***estaĵo*** el via ***tombejo*** al via mano.",
                ":gt: Metu T ĵetonojn ***Malmortulo Skeleto*** en vian ***armeon***, "
                "markitajn, kie T estas la nombro de urboj, kiujn vi regas.",
                ":g9: Metu ĉiujn kartojn de ***estaĵoj*** el via ***tombejo*** en vian "
                "***armeon***.",
            ],
        ),
    ),
    Card(
        "royal-decree",
        "House of Nobles",
        "Event",
        4,
        2,
        notes=["a long text (three paragraphs and flavour): shrunk"],
        en=en(
            "Royal Decree",
            [
                ":B:y order of the crown, each ***player*** chooses one ***creature*** they "
                "control. Mark every other creature.",
                "Until your next turn, marked creatures cannot be unmarked, and no ***player*** "
                "may move a creature into or out of a ***city*** they do not control.",
                "If you control a ***House of Nobles*** city, draw two cards, then discard one "
                "card.",
                '*"The ink is dry. The matter is closed."*',
            ],
        ),
        fr=fr(
            "Décret royal",
            [
                ":P:ar ordre de la couronne, chaque *joueureuse* choisit une *créature* qu'elle "
                "contrôle. Engage toutes les autres *créatures*.",
                "Jusqu'à ton prochain tour, les *créatures engagées* ne peuvent pas être "
                "désengagées, et aucune *joueureuse* ne peut déplacer une *créature* vers ou "
                "hors d'une *cité* qu'elle ne contrôle pas.",
                "Si tu contrôles une *cité* des **Aristocrates**, pioche deux cartes, puis "
                "défausse une carte.",
                "*« L'encre est sèche. L'affaire est close. »*",
            ],
        ),
        eo=eo(
            "Reĝa dekreto",
            [
                ":L:aŭ ordono de la krono, ĉiu ***ludanto*** elektas unu ***estaĵon***, kiun ri "
                "regas. Marku ĉiujn aliajn estaĵojn.",
                "Ĝis via venonta vico, markitaj estaĵoj ne povas esti malmarkitaj, kaj neniu "
                "***ludanto*** povas movigi estaĵon en aŭ el ***urbo***, kiun ri ne regas.",
                "Se vi regas urbon de la ***Domo de Nobeloj***, eltiru du kartojn, poste "
                "forĵetu unu karton.",
                "*«La inko sekiĝis. La afero estas fermita.»*",
            ],
        ),
    ),
    Card(
        "call-the-banners",
        "The Empire",
        "Event",
        3,
        1,
        notes=["a drop cap on a five-line paragraph"],
        en=en(
            "Call the Banners",
            [
                ":E:very ***Soldier*** you control gets +1/+1 until the end of the turn. Then, "
                "for each city you control, put one 1/1 ***Soldier*** token into your "
                "***army***, marked. Those tokens gain ***Militia***."
            ],
        ),
        fr=fr(
            "Levée des bannières",
            [
                ":C:haque **soldat** que tu contrôles gagne +1/+1 jusqu'à la fin du tour. "
                "Ensuite, pour chaque *cité* que tu contrôles, mets un jeton **soldat** 1/1 "
                "dans *ton armée*, engagé. Ces jetons acquièrent **milice**."
            ],
        ),
        eo=eo(
            "Alvoko de la standardoj",
            [
                ":Ĉ:iu ***soldato***, kiun vi regas, akiras +1/+1 ĝis la fino de la vico. "
                "Poste, por ĉiu urbo, kiun vi regas, metu unu 1/1 ĵetonon ***Soldato*** en vian "
                "***armeon***, markitan. Tiuj ĵetonoj gajnas la kapablon ***Milicano***."
            ],
        ),
    ),
    Card(
        "market-day",
        "None",
        "Event",
        1,
        0,
        notes=["the small inline mark :mis: inside a sentence; flavour"],
        en=en(
            "Market Day",
            [
                ":T:arget ***player*** draws two cards. Until the end of the turn, you may use "
                "one :mis: ability of a creature you control without marking it.",
                '*"Everything has a price, and today everything is on sale."*',
            ],
        ),
        fr=fr(
            "Jour de marché",
            [
                ":L:a *joueureuse ciblée* pioche deux cartes. Jusqu'à la fin du tour, tu peux "
                "utiliser une capacité :mis: d'une *créature* que tu contrôles sans l'engager.",
                "*« Tout a un prix, et aujourd'hui tout est en solde. »*",
            ],
        ),
        eo=eo(
            "Merkata tago",
            [
                ":C:ela ***ludanto*** eltiras du kartojn. Ĝis la fino de la vico, vi povas uzi "
                "unu :mis: kapablon de estaĵo, kiun vi regas, sen marki ĝin.",
                "*«Ĉio havas prezon, kaj hodiaŭ ĉio estas rabatita.»*",
            ],
        ),
    ),
    # ---- Magic -------------------------------------------------------------------------
    Card(
        "spark",
        "Red Banner",
        "Magic",
        "X",
        1,
        notes=["cost X; a one-line text"],
        en=en("Spark", [":D:eal X damage to target ***creature***."]),
        fr=fr("Étincelle", [":I:nflige X dégâts à la *créature ciblée*."]),
        eo=eo("Fajrero", [":K:aŭzu X damaĝon al cela ***estaĵo***."]),
    ),
    Card(
        "root-snare",
        "Gaian",
        "Magic",
        2,
        1,
        notes=[":m0: and :m5: at a paragraph's start"],
        en=en(
            "Root Snare",
            [
                ":m0: Target attacking ***creature*** gets -2/-0 until the end of the turn.",
                ":m5: Mark target ***creature***. It cannot be unmarked during its "
                "controller's next turn.",
            ],
        ),
        fr=fr(
            "Piège de racines",
            [
                ":m0: La *créature attaquante ciblée* reçoit -2/-0 jusqu'à la fin du tour.",
                ":m5: Engage la *créature ciblée*. Elle ne peut pas être désengagée pendant le "
                "prochain tour de la *joueureuse* qui la contrôle.",
            ],
        ),
        eo=eo(
            "Radika kaptilo",
            [
                ":m0: Cela atakanta ***estaĵo*** akiras -2/-0 ĝis la fino de la vico.",
                ":m5: Marku celan ***estaĵon***. Ĝi ne povas esti malmarkita dum la venonta "
                "vico de sia reganto.",
            ],
        ),
    ),
    Card(
        "soul-rend",
        "Dark Legion",
        "Magic",
        5,
        2,
        notes=["a drop cap on a six-line paragraph"],
        en=en(
            "Soul Rend",
            [
                ":D:estroy target ***creature*** with a cost of 4 or less. Its controller "
                "discards one card for each ***loyalty mark*** it had. If that creature was "
                "***Undead***, return it to play under your control at the end of the turn, "
                "marked, with a -1/-1 counter on it."
            ],
        ),
        fr=fr(
            "Déchirure d'âme",
            [
                ":D:étruis la *créature ciblée* de coût 4 ou moins. La *joueureuse* qui la "
                "contrôlait défausse une carte pour chaque *marqueur de loyauté* qu'elle avait. "
                "Si cette *créature* était un **mort-vivant**, remets-la en jeu sous ton "
                "contrôle à la fin du tour, engagée, avec un marqueur -1/-1 sur elle."
            ],
        ),
        eo=eo(
            "Animŝiro",
            [
                ":D:etruu celan ***estaĵon*** kun kosto de 4 aŭ malpli. Ĝia reganto forĵetas "
                "unu karton por ĉiu ***fideleca marko***, kiun ĝi havis. Se tiu estaĵo estis "
                "***malmortulo***, revenigu ĝin en ludon sub via regado je la fino de la vico, "
                "markitan, kun unu -1/-1 indikilo sur ĝi."
            ],
        ),
    ),
    Card(
        "call-of-the-tides",
        "House of Nobles",
        "Magic",
        3,
        2,
        notes=[":m6: and :m7: at a paragraph's start"],
        en=en(
            "Call of the Tides",
            [":m6: Return target ***creature*** to its owner's hand.", ":m7: Draw two cards."],
        ),
        fr=fr(
            "Appel des marées",
            [
                ":m6: Renvoie la *créature ciblée* dans la *main* de la *joueureuse* qui la "
                "possède.",
                ":m7: Pioche deux cartes.",
            ],
        ),
        eo=eo(
            "Voko de la tajdoj",
            [
                ":m6: Revenigu celan ***estaĵon*** al la mano de ĝia posedanto.",
                ":m7: Eltiru du kartojn.",
            ],
        ),
    ),
    Card(
        "iron-will",
        "The Empire",
        "Magic",
        4,
        3,
        notes=[
            "*near the limit*: a long text near the smallest size, in the spell layout; loyalty 3"
        ],
        en=en(
            "Iron Will",
            [
                ":U:ntil the end of the turn, ***Soldiers*** you control get +0/+3 and gain "
                "***Bodyguard 1***, and damage that ***spells*** would deal to them is dealt "
                "to target ***city*** you control instead.",
                "If you control three or more ***Soldiers***, unmark them. They cannot be "
                "marked by ***spells*** or abilities your opponents control until your next "
                "turn.",
                "At the end of the turn, for each ***Soldier*** that survived combat this "
                "turn, put one +1/+1 counter on it and draw one card, then discard one card.",
                '*"Rust is the only enemy the Legion fears."*',
            ],
        ),
        fr=fr(
            "Volonté de fer",
            [
                ":J:usqu'à la fin du tour, les **soldats** que tu contrôles gagnent +0/+3 et "
                "acquièrent **garde du corps 1**, et les dégâts que des *sorts* devraient leur "
                "infliger sont infligés à la place à la *cité ciblée* que tu contrôles.",
                "Si tu contrôles au moins trois **soldats**, désengage-les. Ils ne peuvent pas "
                "être engagés par des *sorts* ou des capacités que contrôlent tes *adversaires* "
                "jusqu'à ton prochain tour.",
                "À la fin du tour, pour chaque **soldat** qui a survécu au combat ce tour-ci, "
                "mets un marqueur +1/+1 sur lui et pioche une carte, puis défausse une carte.",
                "*« La rouille est la seule ennemie que craint la légion. »*",
            ],
        ),
        eo=eo(
            "Fera volo",
            [
                ":Ĝ:is la fino de la vico, ***soldatoj***, kiujn vi regas, akiras +0/+3 kaj "
                "gajnas la kapablon ***Korpogardisto 1***, kaj damaĝo, kiun ***sorĉoj*** "
                "kaŭzus al ili, estas anstataŭe kaŭzita al cela ***urbo***, kiun vi regas.",
                "Se vi regas almenaŭ tri ***soldatojn***, malmarku ilin. Ili ne povas esti "
                "markitaj de sorĉoj aŭ kapabloj, kiujn viaj ***kontraŭuloj*** regas, ĝis via "
                "venonta vico.",
                "Je la fino de la vico, por ĉiu ***soldato***, kiu postvivis batalon dum ĉi tiu "
                "vico, metu unu +1/+1 indikilon sur ĝin kaj eltiru unu karton, poste forĵetu "
                "unu karton.",
                "*«Rusto estas la sola malamiko, kiun la Legio timas.»*",
            ],
        ),
    ),
    Card(
        "arcane-bolt",
        "None",
        "Magic",
        2,
        0,
        notes=[":m8: and :m9: at a paragraph's start"],
        en=en(
            "Arcane Bolt",
            [
                ":m8: Deal 2 damage to target ***creature***.",
                ":m9: Deal 3 damage to target ***city***.",
            ],
        ),
        fr=fr(
            "Trait arcanique",
            [
                ":m8: Inflige 2 dégâts à la *créature ciblée*.",
                ":m9: Inflige 3 dégâts à la *cité ciblée*.",
            ],
        ),
        eo=eo(
            "Arkana sago",
            [
                ":m8: Kaŭzu 2 damaĝon al cela ***estaĵo***.",
                ":m9: Kaŭzu 3 damaĝon al cela ***urbo***.",
            ],
        ),
    ),
    # ---- Enchantments ------------------------------------------------------------------
    Card(
        "war-banner",
        "Red Banner",
        "Enchantment",
        2,
        1,
        notes=["a short text"],
        en=en(
            "War Banner",
            [":P:lay me on target ***city*** you control. Your ***Orcs*** in it get +1/+0."],
        ),
        fr=fr(
            "Bannière de guerre",
            [
                ":J:oue-moi sur la *cité ciblée* que tu contrôles. Tes **orcs** qui s'y "
                "trouvent gagnent +1/+0."
            ],
        ),
        eo=eo(
            "Milita standardo",
            [
                ":L:udu min sur celan ***urbon***, kiun vi regas. Viaj ***orkoj*** en ĝi akiras "
                "+1/+0."
            ],
        ),
    ),
    Card(
        "evergreen-pact",
        "Gaian",
        "Enchantment",
        3,
        2,
        notes=[":m4: at a paragraph's start; a long flavour text"],
        en=en(
            "Evergreen Pact",
            [
                ":P:lay me on target ***city*** you control.",
                ":m4: Put one ***Tree*** token into this ***city***.",
                '*"We planted the first seed when the world was young, and we swore to tend '
                'the forest until the last star falls from the sky."*',
            ],
        ),
        fr=fr(
            "Pacte sempervirent",
            [
                ":J:oue-moi sur la *cité ciblée* que tu contrôles.",
                ":m4: Mets un jeton **arbre** dans cette *cité*.",
                "*« Nous avons planté la première graine quand le monde était jeune, et nous "
                "avons juré de veiller sur la forêt jusqu'à ce que la dernière étoile tombe du "
                "ciel. »*",
            ],
        ),
        eo=eo(
            "Ĉiamverda pakto",
            [
                ":L:udu min sur celan ***urbon***, kiun vi regas.",
                ":m4: Metu unu ĵetonon ***Arbo*** en ĉi tiun ***urbon***.",
                "*«Ni plantis la unuan semon, kiam la mondo estis juna, kaj ni ĵuris prizorgi "
                "la arbaron ĝis la lasta stelo falos de la ĉielo.»*",
            ],
        ),
    ),
    Card(
        "creeping-dread",
        "Dark Legion",
        "Enchantment",
        2,
        2,
        notes=["a drop cap paragraph, then :m1:"],
        en=en(
            "Creeping Dread",
            [
                ":A:t the start of your turn, each ***opponent*** discards one card.",
                ":m1: Mark target ***creature***.",
            ],
        ),
        fr=fr(
            "Effroi rampant",
            [
                ":A:u début de ton tour, chaque *adversaire* défausse une carte.",
                ":m1: Engage la *créature ciblée*.",
            ],
        ),
        eo=eo(
            "Rampanta teruro",
            [
                ":J:e la komenco de via vico, ĉiu ***kontraŭulo*** forĵetas unu karton.",
                ":m1: Marku celan ***estaĵon***.",
            ],
        ),
    ),
    Card(
        "courtly-manners",
        "House of Nobles",
        "Enchantment",
        10,
        3,
        notes=["a two-digit cost on a spell; loyalty 3; a paragraph without a drop cap"],
        en=en(
            "Courtly Manners",
            [
                ":P:lay me on target ***city***. Creatures in it cannot attack.",
                "At the start of each turn, the ***player*** who controls that city draws one "
                "card.",
            ],
        ),
        fr=fr(
            "Bonnes manières de la cour",
            [
                ":J:oue-moi sur la *cité ciblée*. Les *créatures* qui s'y trouvent ne peuvent "
                "pas attaquer.",
                "Au début de chaque tour, la *joueureuse* qui contrôle cette *cité* pioche une "
                "carte.",
            ],
        ),
        eo=eo(
            "Kortegaj manieroj",
            [
                ":L:udu min sur celan ***urbon***. Estaĵoj en ĝi ne povas ataki.",
                "Je la komenco de ĉiu vico, la ***ludanto***, kiu regas tiun urbon, eltiras unu "
                "karton.",
            ],
        ),
    ),
    Card(
        "martial-law",
        "The Empire",
        "Enchantment",
        3,
        1,
        notes=[":m: and the small mark :mis: at a paragraph's start"],
        en=en(
            "Martial Law",
            [
                ":m: Unmark target ***Soldier*** you control.",
                ":mis: Abilities of your ***Soldiers*** cost :g1: less.",
                "Your ***Soldiers*** cannot be targeted by ***spells*** your ***opponents*** "
                "control.",
            ],
        ),
        fr=fr(
            "Loi martiale",
            [
                ":m: Désengage le **soldat** ciblé que tu contrôles.",
                ":mis: Les capacités de tes **soldats** coûtent :g1: de moins.",
                "Tes **soldats** ne peuvent pas être ciblés par les *sorts* que contrôlent tes "
                "*adversaires*.",
            ],
        ),
        eo=eo(
            "Milita leĝo",
            [
                ":m: Malmarku celan ***soldaton***, kiun vi regas.",
                ":mis: Kapabloj de viaj ***soldatoj*** kostas :g1: malpli.",
                "Viaj ***soldatoj*** ne povas esti celataj de ***sorĉoj***, kiujn viaj "
                "***kontraŭuloj*** regas.",
            ],
        ),
    ),
    Card(
        "quiet-library",
        "None",
        "Enchantment",
        1,
        0,
        notes=["a line break, an empty paragraph, then flavour"],
        en=en(
            "Quiet Library",
            [
                ":P:lay me on target ***city*** you control."
                + BR
                + "At the start of your turn, draw one card.",
                EMPTY,
                '*"Shh."*',
            ],
        ),
        fr=fr(
            "Bibliothèque silencieuse",
            [
                ":J:oue-moi sur la *cité ciblée* que tu contrôles."
                + BR
                + "Au début de ton tour, pioche une carte.",
                EMPTY,
                "*« Chut. »*",
            ],
        ),
        eo=eo(
            "Silenta biblioteko",
            [
                ":L:udu min sur celan ***urbon***, kiun vi regas."
                + BR
                + "Je la komenco de via vico, eltiru unu karton.",
                EMPTY,
                "*«Ŝŝ.»*",
            ],
        ),
    ),
    # ---- Equipment ---------------------------------------------------------------------
    Card(
        "war-axe",
        "Red Banner",
        "Equipment",
        1,
        1,
        notes=["a short equipment"],
        en=en("War Axe", [":A:ttach me to target ***Orc*** you control. It gets +2/+0."]),
        fr=fr(
            "Hache de guerre", [":A:ttache-moi à l'**orc** ciblé que tu contrôles. Il gagne +2/+0."]
        ),
        eo=eo("Milita hakilo", [":A:ligu min al cela ***orko***, kiun vi regas. Ĝi akiras +2/+0."]),
    ),
    Card(
        "bark-armor",
        "Gaian",
        "Equipment",
        2,
        1,
        notes=["a drop cap paragraph, then :m2:"],
        en=en(
            "Bark Armor",
            [
                ":A:ttach me to target ***creature*** you control. It gets +0/+3.",
                ":m2: Unmark the equipped ***creature***.",
            ],
        ),
        fr=fr(
            "Armure d'écorce",
            [
                ":A:ttache-moi à la *créature ciblée* que tu contrôles. Elle gagne +0/+3.",
                ":m2: Désengage la *créature équipée*.",
            ],
        ),
        eo=eo(
            "Ŝelkiraso",
            [
                ":A:ligu min al cela ***estaĵo***, kiun vi regas. Ĝi akiras +0/+3.",
                ":m2: Malmarku la ekipitan ***estaĵon***.",
            ],
        ),
    ),
    Card(
        "cursed-lantern",
        "Dark Legion",
        "Equipment",
        2,
        1,
        notes=["a drop cap on a four-line paragraph"],
        en=en(
            "Cursed Lantern",
            [
                ":A:ttach me to target ***creature***. At the start of each turn, put one -1/-1 "
                "counter on it. If it has three or more counters, destroy it."
            ],
        ),
        fr=fr(
            "Lanterne maudite",
            [
                ":A:ttache-moi à la *créature ciblée*. Au début de chaque tour, mets un "
                "marqueur -1/-1 sur elle. Si elle a au moins trois marqueurs, détruis-la."
            ],
        ),
        eo=eo(
            "Malbenita lanterno",
            [
                ":A:ligu min al cela ***estaĵo***. Je la komenco de ĉiu vico, metu unu -1/-1 "
                "indikilon sur ĝin. Se ĝi havas almenaŭ tri indikilojn, detruu ĝin."
            ],
        ),
    ),
    Card(
        "signet-ring",
        "House of Nobles",
        "Equipment",
        2,
        1,
        notes=["a long second name line (shrunk)"],
        en=en(
            "Signet Ring",
            [
                ":A:ttach me to target ***Human*** you control. It gains ***Unique*** and "
                "***Sanctuary***."
            ],
            name2="of the Last Duchess of the Drowned Coast",
        ),
        fr=fr(
            "Chevalière",
            [
                ":A:ttache-moi à l'**humain** ciblé que tu contrôles. Il acquiert **unique** et "
                "**sanctuaire**."
            ],
            name2="de la dernière duchesse de la côte engloutie",
        ),
        eo=eo(
            "Sigelringo",
            [
                ":A:ligu min al cela ***homo***, kiun vi regas. Ĝi gajnas la kapablojn "
                "***Unika*** kaj ***Rifuĝita***."
            ],
            name2="de la lasta dukino de la dronita marbordo",
        ),
    ),
    Card(
        "legion-standard",
        "The Empire",
        "Equipment",
        3,
        2,
        notes=["a drop cap, an ability definition, :ma: and flavour: shrunk"],
        en=en(
            "Legion Standard",
            [
                ":A:ttach me to target ***Soldier*** you control. It gets +1/+1 and gains "
                "***Veteran***.",
                "***Veteran***" + BR + "*I am not marked for attacking.*",
                ":ma: Other ***Soldiers*** in your ***army*** get +A/+0 until the end of the "
                "turn, where A is the number of cities you control.",
                '*"Where the standard stands, the Legion stands."*',
            ],
        ),
        fr=fr(
            "Étendard de la légion",
            [
                ":A:ttache-moi au **soldat** ciblé que tu contrôles. Il gagne +1/+1 et acquiert "
                "**vétéran**.",
                "***Vétéran***" + BR + "*Je ne suis pas engagé quand j'attaque.*",
                ":ma: Les autres **soldats** dans *ton armée* gagnent +A/+0 jusqu'à la fin du "
                "tour, où A est le nombre de *cités* que tu contrôles.",
                "*« Là où se dresse l'étendard, la légion tient bon. »*",
            ],
        ),
        eo=eo(
            "Standardo de la legio",
            [
                ":A:ligu min al cela ***soldato***, kiun vi regas. Ĝi akiras +1/+1 kaj gajnas la "
                "kapablon ***Veterano***.",
                "***Veterano***" + BR + "*Mi ne estas markita por atakado.*",
                ":ma: Aliaj ***soldatoj*** en via ***armeo*** akiras +A/+0 ĝis la fino de la "
                "vico, kie A estas la nombro de urboj, kiujn vi regas.",
                "*«Kie staras la standardo, tie staras la Legio.»*",
            ],
        ),
    ),
    Card(
        "traveling-cloak",
        "None",
        "Equipment",
        1,
        0,
        notes=["a faction-neutral equipment"],
        en=en(
            "Traveling Cloak",
            [
                ":A:ttach me to target ***creature*** you control. It gains ***Travel*** and "
                "***Infiltrate***."
            ],
        ),
        fr=fr(
            "Cape de voyage",
            [
                ":A:ttache-moi à la *créature ciblée* que tu contrôles. Elle acquiert "
                "**voyageur** et **infiltré**."
            ],
        ),
        eo=eo(
            "Vojaĝa mantelo",
            [
                ":A:ligu min al cela ***estaĵo***, kiun vi regas. Ĝi gajnas la kapablojn "
                "***Vojaĝanto*** kaj ***Entrudiĝanto***."
            ],
        ),
    ),
    # ---- Extremes ----------------------------------------------------------------------
    Card(
        "conclave-archimandrite",
        "Dark Legion",
        "Creature",
        7,
        2,
        attack=5,
        defense=5,
        notes=["REFUSED: a name no font size can hold on one line (about 3.8 pt needed)"],
        en=en(
            "Archimandrite Plenipotentiary of the Sevenfold Obsidian Conclave of Night",
            [":m: Each ***opponent*** discards one card."],
            subtype="Human Priest",
        ),
        fr=fr(
            "Archimandrite plénipotentiaire du conclave septuple d'obsidienne de la nuit",
            [":m: Chaque *adversaire* défausse une carte."],
            subtype="Prêtre, humain",
        ),
        eo=eo(
            "Plenrajta arkimandrito de la sepobla obsidiana konklavo de la nokto",
            [":m: Ĉiu ***kontraŭulo*** forĵetas unu karton."],
            subtype="Homo Pastro",
        ),
    ),
    Card(
        "duke-of-the-marches",
        "House of Nobles",
        "Creature",
        6,
        3,
        attack=4,
        defense=6,
        notes=["REFUSED: a second name line no font size can hold (about 4 pt needed)"],
        en=en(
            "Duke",
            [ability(UNIQUE, "en")],
            subtype="Human Lord",
            name2="of the Western Marches, the Salt Coast, the Nine Drowned Islands and "
            "the Far Shore",
        ),
        fr=fr(
            "Duc",
            [ability(UNIQUE, "fr")],
            subtype="Seigneur, humain",
            name2="des marches de l'Ouest, de la côte de Sel, des neuf îles noyées et du "
            "rivage lointain",
            ignore=(("FR301",), "FR301: l'Ouest and Sel are place names."),
        ),
        eo=eo(
            "Duko",
            [ability(UNIQUE, "eo")],
            subtype="Homo Sinjoro",
            name2="de la Okcidentaj Markioj, la Sala Marbordo, la Naŭ Dronintaj Insuloj "
            "kaj la Fora Bordo",
        ),
    ),
    Card(
        "endless-lineage",
        "None",
        "Creature",
        4,
        1,
        attack=3,
        defense=3,
        notes=["REFUSED: a type line no font size can hold (seventeen subtypes)"],
        en=en(
            "Endless Lineage",
            [
                "***Pack***" + BR + "*While attacking, you may combine me with other creatures "
                "into a single creature. (Packed creatures lose their other abilities during "
                "combat.)*"
            ],
            subtype="Undead Skeleton Human Elf Merfolk Orc Imp Troll Vampire Warg Shadow "
            "Knight Soldier Wizard Priest Lord Leader",
        ),
        fr=fr(
            "Lignée sans fin",
            [
                "***Meute***" + BR + "*Pendant l'attaque, tu peux m'associer avec d'autres "
                "créatures pour ne faire qu'une créature. (Les créatures en meute perdent leurs "
                "autres capacités pendant le combat.)*"
            ],
            subtype="Leader, seigneur, prêtre, sorcier, soldat, chevalier, ombre, ouargue, "
            "vampire, troll, gobelin, orc, ondin, elfe, humain, squelette, "
            "mort-vivant",
            ignore=(
                ("TR404",),
                "TR404: the French abilities list writes « en Meute » with a "
                "capital, which the guide\ndoes not (FR302).",
            ),
        ),
        eo=eo(
            "Senfina deveno",
            [
                "***Ariĝanto***" + BR + "*Atakante, vi povas arigi min kun aliaj estaĵoj en "
                "unuopan estaĵon. (Arigitaj estaĵoj perdas siajn aliajn kapablojn dum batalo.)*"
            ],
            subtype="Malmortulo Skeleto Homo Elfo Sireno Orko Gnomo Trolo Vampiro Ŭargo "
            "Ombro Kavaliro Soldato Sorĉisto Pastro Sinjoro Estro",
        ),
    ),
    Card(
        "keeper-of-all-rules",
        "None",
        "Creature",
        9,
        1,
        attack=1,
        defense=9,
        notes=["REFUSED: a text far too long for the smallest size (seven abilities)"],
        en=en(
            "Keeper of All Rules",
            [
                "***Homesick***" + BR + "*At the start of my controller's turn, if I am not in "
                "a city of the same faction, I lose one loyalty mark; otherwise, I gain one. I "
                "cannot gain more than my original number, and I die when I have none left.*",
                "***Rabies***" + BR + "*Creatures with rabies must attack each turn if able. Any "
                "creature damaged by a creature with rabies gains rabies. At the end of a "
                "player's turn, they must sacrifice all creatures with rabies.*",
                "***Unearth 3***" + BR + "*When I am converted into a resource card, reveal me "
                "and put 3 unearth counters on me. Remove one at the end of each turn, and put "
                "me into your army when you remove the last counter.*",
                "***Evolve Human 3***" + BR + "*When I die, put a Human with casting cost 3 or "
                "less from your hand into your army marked.*",
                "***Hidden***" + BR + "*Hidden creatures are placed back side up and are no "
                "longer in play. (Other cards may hide or unhide a creature.)*",
                "***Necromancer***" + BR + "*When a creature I have dealt damage to this turn "
                "dies, put a 1/1 Undead Skeleton token into your army marked.*",
                "***Salvage 2***" + BR + "*You may pay 2 resources to return me to your hand "
                "from the graveyard.*",
                '*"I have read every rule ever written, and I have written the rest."*',
            ],
            subtype="Human Keeper",
        ),
        fr=fr(
            "Gardien de toutes les règles",
            [
                "***Mal du pays***" + BR + "*Au début du tour de la joueureuse qui me contrôle, "
                "si je ne suis pas dans une cité de la même faction, je perds un marqueur de "
                "loyauté ; sinon, j'en gagne un. Je ne peux pas en gagner plus que mon nombre "
                "initial, et je meurs s'il ne m'en reste plus.*",
                "***Rage***" + BR + "*Les créatures atteintes de rage doivent attaquer à chaque "
                "tour si possible. Toute créature à laquelle une créature atteinte de "
                "rage inflige des dégâts contracte la rage. À la fin du tour d'une joueureuse, "
                "elle doit sacrifier toutes les créatures atteintes de rage.*",
                "***Déterré 3***" + BR + "*Quand je suis converti en carte ressource, "
                "révèle-moi et mets 3 marqueurs sur moi. Enlève un marqueur à la fin de chaque "
                "tour, puis mets-moi dans ton armée quand tu enlèves le dernier marqueur.*",
                "***Évolution humain 3***" + BR + "*Quand je meurs, mets un humain de coût 3 ou "
                "moins depuis ta main dans ton armée (engagé).*",
                "***Cachée***" + BR + "*Les créatures cachées sont placées face cachée et ne "
                "sont plus en jeu (d'autres cartes peuvent cacher ou révéler des créatures "
                "cachées).*",
                "***Nécromancien***" + BR + "*Quand une créature que j'ai blessée ce tour-ci "
                "meurt, mets un jeton squelette mort-vivant 1/1 dans ton armée, engagé.*",
                "***Sauvetage 2***" + BR + "*Tu peux payer 2 ressources pour me faire revenir "
                "du cimetière vers ta main.*",
                "*« J'ai lu toutes les règles jamais écrites, et j'ai écrit les autres. »*",
            ],
            subtype="Gardien, humain",
            ignore=(
                ("TR404",),
                "TR404: the French abilities list writes « joueuse » (Rage) "
                "where the guide says\n« joueureuse ».",
            ),
        ),
        eo=eo(
            "Gardanto de ĉiuj reguloj",
            [
                "***Hejmsopira***" + BR + "*Je la komenco de la vico de mia reganto, se mi ne "
                "estas en urbo de la sama frakcio, mi perdas unu fidelecan markon; alie, mi gajnas "
                "unu. Mi ne povas gajni pli ol mia originala nombro, kaj mi mortas kiam mi "
                "havas neniun.*",
                "***Rabia***" + BR + "*Estaĵoj rabiaj devas ataki ĉiun vicon se kapablaj. "
                "Ajna estaĵo damaĝita de rabia estaĵo iĝas rabia. Fine de la vico de ludanto, "
                "ri devas oferi ĉiujn rabiajn estaĵojn.*",
                "***Elterigonto 3***" + BR + "*Kiam mi estas konvertita en rimedokarton, montru "
                "min kaj metu 3 elterigajn indikilojn sur min. Forigu unu je la fino de ĉiu "
                "vico, kaj metu min en vian armeon kiam vi forigas la lastan indikilon.*",
                "***Evoluonto Homo 3***" + BR + "*Kiam mi mortas, metu unu homon kun ĵetkosto 3 "
                "aŭ malpli el via mano en vian armeon, markitan.*",
                "***Kaŝita***" + BR + "*Kaŝitaj estaĵoj estas metitaj dorsflanke supren kaj ne "
                "plu estas enludaj. (Aliaj kartoj povas kaŝi aŭ malkaŝi iun estaĵon.)*",
                "***Nekromanciulo***" + BR + "*Kiam estaĵo, al kiu mi kaŭzis damaĝon dum ĉi "
                "tiu vico, mortas, metu unu 1/1 ĵetonon Malmortulo Skeleto en vian armeon, "
                "markitan.*",
                "***Savebla 2***" + BR + "*Vi povas pagi 2 rimedojn por revenigi min al via "
                "mano el la tombejo.*",
                "*«Mi legis ĉiun iam ajn verkitan regulon, kaj mi verkis la ceterajn.»*",
            ],
            subtype="Homo Gardanto",
            ignore=(
                ("TR404",),
                "TR404: the Esperanto abilities list writes « metu unu Homo ... "
                "al vian armeon »\n(Evoluonto) and « por reveni min » (Savebla): the "
                "accusative and « revenigi » are meant.",
            ),
        ),
    ),
    Card(
        "moss-grove-warden",
        "Gaian",
        "Creature",
        4,
        2,
        attack=3,
        defense=4,
        notes=["*near the limit*: a long name (about 7.4 pt in English)"],
        en=en(
            "Warden of the Whispering Moss Groves",
            [ability(RANGED, "en"), '*"The groves whisper, and she listens."*'],
            subtype="Elf Legend",
        ),
        fr=fr(
            "Gardienne des bosquets murmurants",
            [ability(RANGED, "fr"), "*« Les bosquets murmurent, et elle écoute. »*"],
            subtype="Elfe, légendaire",
        ),
        eo=eo(
            "Gardanto de la flustrantaj arbaretoj",
            [ability(RANGED, "eo"), "*«La arbaretoj flustras, kaj ŝi aŭskultas.»*"],
            subtype="Elfo Legendo",
        ),
    ),
    Card(
        "eldest-watchtower",
        "Gaian",
        "City",
        0,
        1,
        defense=13,
        notes=["*near the limit*: a very long name that fits at about 6.2-6.8 pt"],
        en=en(
            "Eldest Watchtower of the Whispering Moss",
            [
                ":m3: Target ***creature*** in this ***city*** gains ***Ranged*** until the end "
                "of the turn."
            ],
            subtype="City",
        ),
        fr=fr(
            "Plus vieille tour de guet des bosquets moussus",
            [
                ":m3: La *créature ciblée* dans cette *cité* acquiert **longue portée** "
                "jusqu'à la fin du tour."
            ],
            subtype="Cité",
        ),
        eo=eo(
            "Plej maljuna gardoturo de la muskaj arbaretoj",
            [
                ":m3: Cela ***estaĵo*** en ĉi tiu ***urbo*** gajnas la kapablon "
                "***Distancfrapanto*** ĝis la fino de la vico."
            ],
            subtype="Urbo",
        ),
    ),
    Card(
        "grave-marshal",
        "Dark Legion",
        "Creature",
        5,
        2,
        attack=4,
        defense=4,
        notes=["*near the limit*: a long type line (five subtypes in French)"],
        en=en(
            "Grave Marshal",
            [
                "***First Strike***" + BR + "*In combat, I deal damage first. The opposing "
                "creature only strikes back if it survives.*"
            ],
            subtype="Undead Human Knight Soldier Leader",
        ),
        fr=fr(
            "Maréchal des tombes",
            [
                "***Initiative***" + BR + "*Au combat, j'inflige les dégâts en premier. La "
                "créature adverse n'attaque en retour que si elle survit.*"
            ],
            subtype="Leader, soldat, chevalier, humain, mort-vivant",
        ),
        eo=eo(
            "Tomba marŝalo",
            [
                "***Unua Frapanto***" + BR + "*En batalo, mi damaĝas unue. La kontraŭa estaĵo "
                "nur rebatos se ĝi pluvivas.*"
            ],
            subtype="Malmortulo Homo Kavaliro Soldato Estro",
        ),
    ),
    Card(
        "bone-falconer",
        "The Empire",
        "Creature",
        3,
        1,
        attack=3,
        defense=2,
        notes=["*near the limit*: a very long type line (seven subtypes)"],
        en=en(
            "Bone Falconer",
            [ability(FLYING, "en")],
            subtype="Undead Skeleton Human Knight Soldier Bird Leader",
        ),
        fr=fr(
            "Fauconnier d'os",
            [ability(FLYING, "fr")],
            subtype="Leader, oiseau, soldat, chevalier, humain, squelette, mort-vivant",
        ),
        eo=eo(
            "Osta falkisto",
            [ability(FLYING, "eo")],
            subtype="Malmortulo Skeleto Homo Kavaliro Soldato Birdo Estro",
        ),
    ),
    Card(
        "colossus",
        "None",
        "Creature",
        15,
        3,
        attack=88,
        defense=99,
        notes=["two-digit cost, attack and defense; loyalty 3"],
        en=en("Colossus", ["***Fatigue***" + BR + "*I come into play marked.*"], subtype="Gear"),
        fr=fr("Colosse", ["***Fatigue***" + BR + "*J'entre en jeu engagé.*"], subtype="Engin"),
        eo=eo("Koloso", ["***Laca***" + BR + "*Mi eniĝas ludon markita.*"], subtype="Maŝino"),
    ),
    Card(
        "last-rites",
        "Dark Legion",
        "Event",
        2,
        1,
        notes=["a drop cap with an accent in Esperanto (Ĉ)"],
        en=en(
            "Last Rites",
            [
                ":A:t the end of the turn, draw one card for each ***creature*** that died "
                "this turn."
            ],
        ),
        fr=fr(
            "Derniers sacrements",
            [":P:ioche, à la fin du tour, une carte pour chaque *créature* morte ce tour-ci."],
        ),
        eo=eo(
            "Lastaj ritoj",
            [
                ":Ĉ:e la fino de la vico, eltiru unu karton por ĉiu ***estaĵo***, kiu mortis "
                "dum ĉi tiu vico."
            ],
        ),
    ),
    Card(
        "echo-of-steel",
        "The Empire",
        "Magic",
        2,
        1,
        notes=[
            "an accented capital in the French name and drop cap (É); a drop cap on a "
            "three-line paragraph"
        ],
        en=en(
            "Echo of Steel",
            [
                ":E:quip target ***Soldier*** you control with an equipment card from your "
                "***graveyard***."
            ],
        ),
        fr=fr(
            "Écho d'acier",
            [
                ":É:quipe le **soldat** ciblé que tu contrôles d'une carte d'équipement de ton "
                "*cimetière*."
            ],
        ),
        eo=eo(
            "Eĥo de ŝtalo",
            [
                ":E:kipu celan ***soldaton***, kiun vi regas, per karto de ***ekipaĵo*** el via "
                "***tombejo***."
            ],
        ),
    ),
    Card(
        "cypher-study",
        "None",
        "Magic",
        1,
        0,
        notes=["cypher discs :g1:, :g4:, :g5:, :g7:, :g8: at a paragraph's start"],
        en=en(
            "Cypher Study",
            [
                ":g1: Draw one card.",
                ":g4: Draw two cards, then discard one card.",
                ":g5: Look at the top five cards of your ***deck***. Put one into your hand "
                "and the rest at the bottom in any order.",
                ":g7: Return target ***creature*** to its owner's hand.",
                ":g8: Each ***player*** draws two cards.",
            ],
        ),
        fr=fr(
            "Étude des chiffres",
            [
                ":g1: Pioche une carte.",
                ":g4: Pioche deux cartes, puis défausse une carte.",
                ":g5: Regarde les cinq cartes du dessus de ton *deck*. Mets-en une dans ta "
                "*main* et les autres en dessous, dans l'ordre de ton choix.",
                ":g7: Renvoie la *créature ciblée* dans la *main* de la *joueureuse* qui la "
                "possède.",
                ":g8: Chaque *joueureuse* pioche deux cartes.",
            ],
        ),
        eo=eo(
            "Studo de la ciferoj",
            [
                ":g1: Eltiru unu karton.",
                ":g4: Eltiru du kartojn, poste forĵetu unu karton.",
                ":g5: Rigardu la suprajn kvin kartojn de via ***kartaro***. Metu unu en vian "
                "manon kaj la ceterajn sube, en ajna ordo.",
                ":g7: Revenigu celan ***estaĵon*** al la mano de ĝia posedanto.",
                ":g8: Ĉiu ***ludanto*** eltiras du kartojn.",
            ],
        ),
    ),
    Card(
        "ballad-of-the-drowned",
        "House of Nobles",
        "Event",
        1,
        1,
        notes=["a one-line text and a long flavour text (four lines and more)"],
        en=en(
            "Ballad of the Drowned",
            [
                ":D:raw one card.",
                '*"Sing of the ships that sailed at dawn, of the captains who swore to return, '
                "and of the sea that kept them all. Sing low, for the sea is listening, and it "
                'has never once given back what it took."*',
            ],
        ),
        fr=fr(
            "Ballade des noyés",
            [
                ":P:ioche une carte.",
                "*« Chante les navires partis à l'aube, les capitaines qui juraient de revenir, "
                "et la mer qui les a tous gardés. Chante tout bas, car la mer écoute, et elle "
                "n'a jamais rendu ce qu'elle a pris. »*",
            ],
        ),
        eo=eo(
            "Balado de la dronintoj",
            [
                ":E:ltiru unu karton.",
                "*«Kantu pri la ŝipoj, kiuj ekveliris ĉe tagiĝo, pri la kapitanoj, kiuj ĵuris "
                "reveni, kaj pri la maro, kiu gardis ilin ĉiujn. Kantu mallaŭte, ĉar la maro "
                "aŭskultas, kaj ĝi neniam redonis tion, kion ĝi prenis.»*",
            ],
        ),
    ),
    Card(
        "border-post",
        "The Empire",
        "City",
        0,
        2,
        defense=10,
        notes=["*near the limit*: a long footer (info) of its own in every language"],
        en=en(
            "Border Post",
            [":m: Move target ***Soldier*** you control into this ***city***."],
            info="arcmage.org - stress test edition - every element measured, every card "
            "checked - join us!",
        ),
        fr=fr(
            "Poste frontière",
            [":m: Déplace le **soldat** ciblé que tu contrôles dans cette *cité*."],
            info="arcmage.org - édition d'essai - chaque élément mesuré, chaque carte "
            "vérifiée - rejoignez-nous !",
        ),
        eo=eo(
            "Limgardejo",
            [":m: Movigu celan ***soldaton***, kiun vi regas, en ĉi tiun ***urbon***."],
            info="arcmage.org - prova eldono - ĉiu elemento mezurita, ĉiu karto kontrolita "
            "- aliĝu al ni!",
        ),
    ),
    Card(
        "long-winded-sage",
        "House of Nobles",
        "Creature",
        4,
        2,
        attack=1,
        defense=4,
        notes=[
            "*near the limit*: a text near the smallest size in English; the longer "
            "French and Esperanto"
        ],
        en=en(
            "Long-Winded Sage",
            [
                ":W:hen I come into play, each ***player*** may draw one card. For each player "
                "who does, put one +0/+1 counter on me.",
                "***Sanctuary***"
                + BR
                + "*I can't be the target of spells or abilities from opponents.*",
                ":m: Target ***player*** reveals their hand. You may choose a ***spell*** card "
                "from it; that player discards it, then draws one card.",
                ":m2: Until the end of the turn, ***creatures*** your opponents control lose "
                "all abilities.",
                '*"Let me begin with a short story about my youth."*',
            ],
            subtype="Human Wizard",
        ),
        fr=fr(
            "Sage intarissable",
            [
                ":Q:uand j'entre en jeu, chaque *joueureuse* peut piocher une carte. Pour "
                "chaque *joueureuse* qui le fait, mets un marqueur +0/+1 sur moi.",
                "***Sanctuaire***" + BR + "*Je ne peux pas être la cible de sorts ou de "
                "capacités de la part de mes adversaires.*",
                ":m: La *joueureuse ciblée* révèle sa *main*. Tu peux y choisir une carte de "
                "*sort* ; cette *joueureuse* la défausse, puis pioche une carte.",
                ":m2: Jusqu'à la fin du tour, les *créatures* que contrôlent tes *adversaires* "
                "perdent toutes leurs capacités.",
                "*« Laisse-moi commencer par une courte histoire de ma jeunesse. »*",
            ],
            subtype="Sorcier, humain",
        ),
        eo=eo(
            "Babilema saĝulo",
            [
                ":K:iam mi venas en ludon, ĉiu ***ludanto*** povas eltiri unu karton. Por ĉiu "
                "ludanto, kiu faras tion, metu unu +0/+1 indikilon sur min.",
                "***Rifuĝita***"
                + BR
                + "*Mi ne povas esti la celo de sorĉoj aŭ kapabloj de kontraŭuloj.*",
                ":m: Cela ***ludanto*** montras sian manon. Vi povas elekti el ĝi karton de "
                "***sorĉo***; tiu ludanto forĵetas ĝin, poste eltiras unu karton.",
                ":m2: Ĝis la fino de la vico, ***estaĵoj***, kiujn viaj kontraŭuloj regas, "
                "perdas ĉiujn kapablojn.",
                "*«Permesu, ke mi komencu per mallonga rakonto pri mia juneco.»*",
            ],
            subtype="Homo Sorĉisto",
        ),
    ),
    Card(
        "warcamp",
        "Red Banner",
        "City",
        0,
        2,
        defense=16,
        notes=[
            "*near the limit*: five paragraphs each opening with a large mark, shrunk with the text"
        ],
        en=en(
            "Warcamp",
            [
                ":m: Target ***Orc*** gets +1/+0 until the end of the turn.",
                ":m1: Unmark target ***Orc*** in this ***city***.",
                ":m2: Put one 1/1 ***Orc*** token into this city.",
                ":mx: Deal X damage to target ***city***, where X is the number of marked Orcs "
                "you control.",
                ":mt: Draw T cards, where T is the number of cities you control.",
            ],
        ),
        fr=fr(
            "Camp de guerre",
            [
                ":m: L'**orc** ciblé gagne +1/+0 jusqu'à la fin du tour.",
                ":m1: Désengage l'**orc** ciblé dans cette *cité*.",
                ":m2: Mets un jeton **orc** 1/1 dans cette *cité*.",
                ":mx: Inflige X dégâts à la *cité ciblée*, où X est le nombre d'**orcs** "
                "engagés que tu contrôles.",
                ":mt: Pioche T cartes, où T est le nombre de *cités* que tu contrôles.",
            ],
        ),
        eo=eo(
            "Milita tendaro",
            [
                ":m: Cela ***orko*** akiras +1/+0 ĝis la fino de la vico.",
                ":m1: Malmarku celan ***orkon*** en ĉi tiu ***urbo***.",
                ":m2: Metu unu 1/1 ĵetonon ***Orko*** en ĉi tiun urbon.",
                ":mx: Kaŭzu X damaĝon al cela ***urbo***, kie X estas la nombro de markitaj "
                "orkoj, kiujn vi regas.",
                ":mt: Eltiru T kartojn, kie T estas la nombro de urboj, kiujn vi regas.",
            ],
        ),
    ),
    Card(
        "chronicle-of-roots",
        "Gaian",
        "Enchantment",
        3,
        2,
        notes=["a column mark :mc: beside five lines and more, :mic: beside two or three"],
        en=en(
            "Chronicle of Roots",
            [
                ":mc: Put one +1/+1 counter on target ***Gaian*** creature."
                + BR
                + "Use this at most once each turn."
                + BR
                + "Use this only if you control a ***city*** with three or more residents."
                + BR
                + "If that creature is a ***Tree***, draw one card.",
                ":mic: Each ***opponent*** discards one card."
                + BR
                + "Use this only if you have no cards in hand.",
            ],
        ),
        fr=fr(
            "Chronique des racines",
            [
                ":mc: Mets un marqueur +1/+1 sur la *créature* **gaïenne** ciblée."
                + BR
                + "Utilise ceci au plus une fois à chaque tour."
                + BR
                + "N'utilise ceci que si tu contrôles une *cité* d'au moins trois résidents."
                + BR
                + "Si cette *créature* est un **arbre**, pioche une carte.",
                ":mic: Chaque *adversaire* défausse une carte."
                + BR
                + "N'utilise ceci que si tu n'as aucune carte en *main*.",
            ],
        ),
        eo=eo(
            "Kroniko de la radikoj",
            [
                ":mc: Metu unu +1/+1 indikilon sur celan estaĵon de ***Geo***."
                + BR
                + "Uzu tion maksimume unu fojon en ĉiu vico."
                + BR
                + "Uzu tion nur se vi regas ***urbon*** kun almenaŭ tri loĝantoj."
                + BR
                + "Se tiu estaĵo estas ***arbo***, eltiru unu karton.",
                ":mic: Ĉiu ***kontraŭulo*** forĵetas unu karton."
                + BR
                + "Uzu tion nur se vi havas neniun karton en la mano.",
            ],
        ),
    ),
]


def front_matter(fields: dict[str, object]) -> str:
    """YAML front matter, one ``key: value`` a line, strings quoted only when needed."""
    import yaml

    lines = ["---"]
    for key, value in fields.items():
        if value is None:
            continue
        if key == "source":  # a fingerprint is always quoted (docs/card-files.md)
            lines.append(f'{key}: "{value}"')
            continue
        dumped = yaml.safe_dump(
            {key: value}, allow_unicode=True, width=10_000, default_flow_style=False
        ).rstrip("\n")
        lines.append(dumped)
    lines.append("---")
    return "\n".join(lines) + "\n"


def body(version: Version) -> str:
    """The card text: paragraphs separated by a blank line."""
    return "\n\n".join(version.text) + "\n"


def english_file(card: Card) -> str:
    """The English source card file."""
    fields: dict[str, object] = {
        "name": card.en.name,
        "name2": card.en.name2,
        "type": card.type,
        "faction": card.faction,
        "subtype": card.en.subtype,
        "cost": card.cost,
        "loyalty": card.loyalty,
        "attack": card.attack,
        "defense": card.defense,
        "info": card.en.info,
        "artwork": ART,
        "artist": "translator stress art",
        "license": "CC BY-SA 4.0",
        "status": "Draft",
        "serie": "Stress",
    }
    return front_matter(fields) + body(card.en)


def translation_file(card: Card, lang: str, fingerprint: str) -> str:
    """A translation: only what is translated, and the fingerprint of its source."""
    version: Version = getattr(card, lang)
    fields: dict[str, object] = {
        "name": version.name,
        "name2": version.name2,
        "subtype": version.subtype,
        "info": version.info,
        "status": "Draft",
        "source": fingerprint,
    }
    front = front_matter(fields)
    if version.ignore:  # lint-ignore, with its reason as a comment (docs/lint.md)
        codes, reason = version.ignore
        comment = "".join(f"# {line}\n" for line in reason.splitlines())
        front = front[:-4] + comment + f"lint-ignore: [{', '.join(codes)}]\n---\n"
    return front + body(version)


def fingerprint(slug: str, text: str) -> str:
    """The library's fingerprint of an English card file's content."""
    if str(HERE.parents[2]) not in sys.path:  # run as a script from anywhere
        sys.path.insert(0, str(HERE.parents[2]))
    from translator.cards import source_fingerprint
    from translator.cards.files import parse_card_text

    problems: list = []
    parsed = parse_card_text(f"{HERE}/{slug}.en.md", "stress-library", text, problems)
    # The artwork may not be written yet (--check on a fresh checkout): not a field
    # the fingerprint reads.
    problems = [p for p in problems if not p.message.startswith("artwork ")]
    if parsed is None or problems:
        raise SystemExit(f"{slug}.en.md: {problems}")
    return source_fingerprint(parsed)


def deck_file() -> str:
    """deck.yaml: every card once, in the order of :data:`CARDS`."""
    lines = [
        "# The stress library: cards that push the print layout to its limits (README.md).",
        "# Written by generate.py; edit the script, not the files.",
        "name: Stress",
        "creator: translator",
        "cards:",
    ]
    lines += [f"  {card.slug}: 1" for card in CARDS]
    return "\n".join(lines) + "\n"


def artwork() -> bytes:
    """The shared artwork: flat shapes (a sky, hills, a sun, a tower), a small PNG.

    700 x 420 pixels, drawn without antialiasing and with a handful of colours, so the
    file stays small and the same bytes come out on every run.
    """
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (700, 420), (112, 156, 196))
    draw = ImageDraw.Draw(image)
    draw.ellipse((520, 50, 620, 150), fill=(238, 206, 96))
    draw.polygon(
        [(0, 300), (160, 170), (330, 290), (470, 190), (700, 310), (700, 420), (0, 420)],
        fill=(70, 112, 74),
    )
    draw.polygon(
        [(0, 360), (250, 300), (520, 350), (700, 330), (700, 420), (0, 420)], fill=(48, 82, 52)
    )
    draw.rectangle((300, 150, 360, 330), fill=(86, 78, 92))
    draw.polygon([(290, 150), (330, 100), (370, 150)], fill=(150, 60, 52))
    draw.rectangle((322, 200, 338, 240), fill=(238, 206, 96))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


README_HEAD = """\
# The stress library

Cards a tough user would send to `translator build`, to prove that the print build
measures every element of a card and refuses, with a reason, what cannot fit, instead of
printing it clipped.  `tests/typeset/test_print_stress.py` builds it in every language and
reads the PDFs back with pypdfium2 (not the renderer): glyphs inside the safe area and
inside their element's box, no line touching another, nothing under 6 pt, drop caps
over two lines, loyalty and column marks seen, no English type word on a French or
Esperanto type line, and every refused card named with its reason.

Written by `generate.py` (this file included): edit the script, then run

    .venv/bin/python tests/data/stress-library/generate.py          # write the files
    .venv/bin/python tests/data/stress-library/generate.py --check  # up to date?
    .venv/bin/translator cards check tests/data/stress-library      # a valid library
    .venv/bin/translator build tests/data/stress-library --lang all --png --out /tmp/stress

## What it covers

- **Every faction and type**: Gaian, Dark Legion, Red Banner, House of Nobles, The
  Empire and None (the library's spellings: `translator.cards.FACTIONS`; there is no
  Sheeban faction) x Creature, City, Event, Magic, Enchantment, Equipment, each at
  least once (the first 36 cards, one per faction and type; table below).
- **Names** of growing length: 3 letters (*Imp*, *Fort*), about 30, 36 (shrunk), 40 to
  46 (about 6.2 pt needed), and 73 (no size can hold it); second name lines from short
  to 40-44 characters and 82 (no size).
- **Type lines** of growing length: none, one subtype, three to seven, seventeen (no
  size); a subtype equal to the type (`City` on a city, as Aminduna imports it:
  *Cité*, *Urbo* in translation).
- **Rule texts** of growing length: one line, a few, shrunk, near the smallest size,
  and 1,300 characters (no size), in both layouts (art on top, text on top); flavour,
  short and long; a line break, an empty paragraph; a long footer of its own.
- **Every symbol family at a paragraph's start**: large marks `:m:`, `:m0:` to `:m9:`,
  `:ma:`, `:mt:`, `:mx:`, `:mi:`; cypher discs `:g0:` to `:g9:`, `:gx:`, `:gt:`; column
  marks `:mc:`, `:mic:`; the small mark `:mis:` first and inline; discs inline.
- **Drop caps** (`:W:hen`) on paragraphs of 1, 2, 3, 4, 5 and 6 lines (in English at
  the card's scale), accented ones (*É*, *Ĉ*, *Ĝ*), and *J*, whose hook reaches left.
- **Loyalty** 0, 1, 2 and 3 on creatures, cities and spells; **costs and stats** of
  one and two digits (up to 15, 88/99) and X.
- **French and Esperanto** translations of every card, following the community's
  conventions (as `cards/sample` does; `translator lint` finds nothing): French with
  « » and no-break spaces, ’, *tutoiement*, *joueureuse*, the Lexique's terms, key
  noun groups in italics and subtypes and abilities in simple bold, the abilities
  list's names; Esperanto with «», the Leksikono's terms and the abilities list's
  names.  They are longer where the English is long (French about 15-20 %), so a card
  that fits in English may not in French.  Where an abilities list is itself wrong, the
  card says so in a `lint-ignore` with its reason, as the sample does.
- **Artwork**: one shared flat picture, `art/stress.png` (700 x 420, drawn by the script).

## Expected outcome

Refused in every language (the test asserts it): `conclave-archimandrite` (name),
`duke-of-the-marches` (second name line), `endless-lineage` (type line),
`keeper-of-all-rules` (text).  The cards marked *near the limit* below depend on the
build's smallest sizes and may be refused in one language and printed in another;
every other card is printed.

## The cards

| card | type | faction | loyalty | what it is for |
|---|---|---|---|---|
"""


def readme() -> str:
    """README.md: what the library covers, and a line per card from its notes."""

    def code(note: str) -> str:  # symbol codes as code (GitHub reads :m: as an emoji)
        return re.sub(r"(:[a-z]{1,3}[0-9]?:)", r"`\1`", note)

    rows = [
        f"| `{card.slug}` | {card.type} | {card.faction} | {card.loyalty} | "
        f"{code('; '.join(card.notes))} |"
        for card in CARDS
    ]
    return README_HEAD + "\n".join(rows) + "\n"


def expected_files() -> dict[Path, bytes]:
    """Every file of the library, by path, as this script writes it."""
    files: dict[Path, bytes] = {
        HERE / "deck.yaml": deck_file().encode("utf-8"),
        HERE / "README.md": readme().encode("utf-8"),
        HERE / ART: artwork(),
    }
    for card in CARDS:
        source = english_file(card)
        print_ = fingerprint(card.slug, source)
        files[HERE / f"{card.slug}.en.md"] = source.encode("utf-8")
        for lang in ("fr", "eo"):
            files[HERE / f"{card.slug}.{lang}.md"] = translation_file(card, lang, print_).encode(
                "utf-8"
            )
    return files


def same(path: Path, data: bytes) -> bool:
    """Whether the file holds ``data``; a PNG, whether it holds the same picture.

    Pillow's PNG bytes depend on its zlib, so the artwork is compared by its pixels:
    a checkout is up to date whatever library versions made it.
    """
    if not path.is_file():
        return False
    if path.suffix != ".png":
        return path.read_bytes() == data
    import io

    from PIL import Image

    with Image.open(path) as old, Image.open(io.BytesIO(data)) as new:
        return (old.mode, old.size, old.tobytes()) == (new.mode, new.size, new.tobytes())


def main(argv: list[str] | None = None) -> int:
    """Write the library (or, with ``--check``, report files that differ)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="do not write: exit 1 if a file differs from what is written",
    )
    args = parser.parse_args(argv)
    files = expected_files()
    stale = sorted(path for path in HERE.glob("*.md") if path not in files)
    if args.check:
        differ = [path for path, data in files.items() if not same(path, data)]
        for path in differ + stale:
            print(f"{path.relative_to(HERE)}: not what generate.py writes", file=sys.stderr)
        return 1 if differ or stale else 0
    for path in stale:
        path.unlink()
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not same(path, data):
            path.write_bytes(data)
    print(f"{len(CARDS)} cards in 3 languages, {len(files)} files in {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
