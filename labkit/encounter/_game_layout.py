"""The layout of the whole-game kernel's tables: item kinds, item and character columns, results.

One definition for the kernel (:mod:`labkit.encounter._game_kernels`) and for the code that
fills its arrays (:mod:`labkit.encounter.sim._game_args`), which must not import the kernel
module (the kernel's warm-up builds its example arguments there).

Examples
--------
>>> from labkit.encounter import _game_layout as gl
>>> gl.I_STOCK, gl.OVERFLOW
(11, 1)
"""

# Item kinds and item table columns.
WEAPON, ARMOUR, ATTACHMENT, AMMO_KIND = 0, 1, 2, 3
(I_KIND, I_HIT, I_PURSUIT, I_FS, I_AGI, I_DMG, I_NOISE, I_AMMO, I_MAG, I_PROT, I_FITS,
 I_STOCK) = range(12)  # fmt: skip
# Character table columns.
C_HIT, C_PURSUIT, C_AGI, C_FS, C_LIFE, C_WEAPON = range(6)
# Results.
OK, OVERFLOW = 0, 1
VICTORY, STEP_LIMIT, MUTUAL_DEATH = 0, 1, 2
