"""Standard atomic weights of the elements.

Values are the IUPAC/CIAAW standard atomic weights (2021 table). For the
elements whose standard atomic weight is given by IUPAC as an interval
(H, Li, B, C, N, O, Mg, Si, S, Cl, Ar, Br, Tl, Pb) the IUPAC *conventional*
value is used, which is what textbooks and laboratories normally quote.
Elements without a stable isotope and without a characteristic terrestrial
isotopic composition have the mass number of their longest-lived isotope
(marked ``radioactive=True``).
"""

from collections import namedtuple

Element = namedtuple("Element", "number symbol name weight radioactive")

# (atomic number, symbol, name, standard atomic weight, no stable isotope)
_TABLE = [
    (1, "H", "hydrogen", 1.008, False),
    (2, "He", "helium", 4.002602, False),
    (3, "Li", "lithium", 6.94, False),
    (4, "Be", "beryllium", 9.0121831, False),
    (5, "B", "boron", 10.81, False),
    (6, "C", "carbon", 12.011, False),
    (7, "N", "nitrogen", 14.007, False),
    (8, "O", "oxygen", 15.999, False),
    (9, "F", "fluorine", 18.998403162, False),
    (10, "Ne", "neon", 20.1797, False),
    (11, "Na", "sodium", 22.98976928, False),
    (12, "Mg", "magnesium", 24.305, False),
    (13, "Al", "aluminium", 26.9815384, False),
    (14, "Si", "silicon", 28.085, False),
    (15, "P", "phosphorus", 30.973761998, False),
    (16, "S", "sulfur", 32.06, False),
    (17, "Cl", "chlorine", 35.45, False),
    (18, "Ar", "argon", 39.95, False),
    (19, "K", "potassium", 39.0983, False),
    (20, "Ca", "calcium", 40.078, False),
    (21, "Sc", "scandium", 44.955907, False),
    (22, "Ti", "titanium", 47.867, False),
    (23, "V", "vanadium", 50.9415, False),
    (24, "Cr", "chromium", 51.9961, False),
    (25, "Mn", "manganese", 54.938043, False),
    (26, "Fe", "iron", 55.845, False),
    (27, "Co", "cobalt", 58.933194, False),
    (28, "Ni", "nickel", 58.6934, False),
    (29, "Cu", "copper", 63.546, False),
    (30, "Zn", "zinc", 65.38, False),
    (31, "Ga", "gallium", 69.723, False),
    (32, "Ge", "germanium", 72.630, False),
    (33, "As", "arsenic", 74.921595, False),
    (34, "Se", "selenium", 78.971, False),
    (35, "Br", "bromine", 79.904, False),
    (36, "Kr", "krypton", 83.798, False),
    (37, "Rb", "rubidium", 85.4678, False),
    (38, "Sr", "strontium", 87.62, False),
    (39, "Y", "yttrium", 88.905838, False),
    (40, "Zr", "zirconium", 91.222, False),
    (41, "Nb", "niobium", 92.90637, False),
    (42, "Mo", "molybdenum", 95.95, False),
    (43, "Tc", "technetium", 97.0, True),
    (44, "Ru", "ruthenium", 101.07, False),
    (45, "Rh", "rhodium", 102.90549, False),
    (46, "Pd", "palladium", 106.42, False),
    (47, "Ag", "silver", 107.8682, False),
    (48, "Cd", "cadmium", 112.414, False),
    (49, "In", "indium", 114.818, False),
    (50, "Sn", "tin", 118.710, False),
    (51, "Sb", "antimony", 121.760, False),
    (52, "Te", "tellurium", 127.60, False),
    (53, "I", "iodine", 126.90447, False),
    (54, "Xe", "xenon", 131.293, False),
    (55, "Cs", "caesium", 132.90545196, False),
    (56, "Ba", "barium", 137.327, False),
    (57, "La", "lanthanum", 138.90547, False),
    (58, "Ce", "cerium", 140.116, False),
    (59, "Pr", "praseodymium", 140.90766, False),
    (60, "Nd", "neodymium", 144.242, False),
    (61, "Pm", "promethium", 145.0, True),
    (62, "Sm", "samarium", 150.36, False),
    (63, "Eu", "europium", 151.964, False),
    (64, "Gd", "gadolinium", 157.249, False),
    (65, "Tb", "terbium", 158.925354, False),
    (66, "Dy", "dysprosium", 162.500, False),
    (67, "Ho", "holmium", 164.930329, False),
    (68, "Er", "erbium", 167.259, False),
    (69, "Tm", "thulium", 168.934219, False),
    (70, "Yb", "ytterbium", 173.045, False),
    (71, "Lu", "lutetium", 174.9668, False),
    (72, "Hf", "hafnium", 178.486, False),
    (73, "Ta", "tantalum", 180.94788, False),
    (74, "W", "tungsten", 183.84, False),
    (75, "Re", "rhenium", 186.207, False),
    (76, "Os", "osmium", 190.23, False),
    (77, "Ir", "iridium", 192.217, False),
    (78, "Pt", "platinum", 195.084, False),
    (79, "Au", "gold", 196.966570, False),
    (80, "Hg", "mercury", 200.592, False),
    (81, "Tl", "thallium", 204.38, False),
    (82, "Pb", "lead", 207.2, False),
    (83, "Bi", "bismuth", 208.98040, False),
    (84, "Po", "polonium", 209.0, True),
    (85, "At", "astatine", 210.0, True),
    (86, "Rn", "radon", 222.0, True),
    (87, "Fr", "francium", 223.0, True),
    (88, "Ra", "radium", 226.0, True),
    (89, "Ac", "actinium", 227.0, True),
    (90, "Th", "thorium", 232.0377, False),
    (91, "Pa", "protactinium", 231.03588, False),
    (92, "U", "uranium", 238.02891, False),
    (93, "Np", "neptunium", 237.0, True),
    (94, "Pu", "plutonium", 244.0, True),
    (95, "Am", "americium", 243.0, True),
    (96, "Cm", "curium", 247.0, True),
    (97, "Bk", "berkelium", 247.0, True),
    (98, "Cf", "californium", 251.0, True),
    (99, "Es", "einsteinium", 252.0, True),
    (100, "Fm", "fermium", 257.0, True),
    (101, "Md", "mendelevium", 258.0, True),
    (102, "No", "nobelium", 259.0, True),
    (103, "Lr", "lawrencium", 262.0, True),
    (104, "Rf", "rutherfordium", 267.0, True),
    (105, "Db", "dubnium", 268.0, True),
    (106, "Sg", "seaborgium", 269.0, True),
    (107, "Bh", "bohrium", 270.0, True),
    (108, "Hs", "hassium", 269.0, True),
    (109, "Mt", "meitnerium", 278.0, True),
    (110, "Ds", "darmstadtium", 281.0, True),
    (111, "Rg", "roentgenium", 282.0, True),
    (112, "Cn", "copernicium", 285.0, True),
    (113, "Nh", "nihonium", 286.0, True),
    (114, "Fl", "flerovium", 289.0, True),
    (115, "Mc", "moscovium", 290.0, True),
    (116, "Lv", "livermorium", 293.0, True),
    (117, "Ts", "tennessine", 294.0, True),
    (118, "Og", "oganesson", 294.0, True),
]

ELEMENTS = {sym: Element(num, sym, name, w, r) for num, sym, name, w, r in _TABLE}
"""Mapping of element symbol (e.g. ``"Na"``) to :class:`Element`."""

BY_NAME = {e.name: e for e in ELEMENTS.values()}
BY_NAME["aluminum"] = ELEMENTS["Al"]
BY_NAME["cesium"] = ELEMENTS["Cs"]
BY_NAME["sulphur"] = ELEMENTS["S"]


def atomic_weight(symbol):
    """Return the standard atomic weight of the element ``symbol``.

    Raises ``KeyError`` for an unknown symbol.
    """
    return ELEMENTS[symbol].weight


def lookup(symbol_or_name):
    """Find an element by symbol (case-sensitive first) or English name."""
    key = symbol_or_name.strip()
    if key in ELEMENTS:
        return ELEMENTS[key]
    cap = key[:1].upper() + key[1:].lower()
    if cap in ELEMENTS:
        return ELEMENTS[cap]
    if key.lower() in BY_NAME:
        return BY_NAME[key.lower()]
    if key.isdigit():
        for e in ELEMENTS.values():
            if e.number == int(key):
                return e
    raise KeyError(symbol_or_name)
