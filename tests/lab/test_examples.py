"""The dice duel example: both versions roll the same dice (the rest: test_grid_sweep)."""

from labkit.lab.examples import dice_duel, play_duel


def test_the_duel_is_decided_and_the_attacker_wins_a_one_hit_duel_on_a_first_hit():
    wins = [play_duel(1, 1, s) for s in range(200)]
    assert set(wins) == {0.0, 1.0}
    # one hit each way: the attacker wins when its first hit comes no later than the other's
    assert 0.55 < sum(wins) / len(wins) < 0.78  # exact 2/3
    assert dice_duel(jit=True).name == dice_duel().name == "dice duel"
