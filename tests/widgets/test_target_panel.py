"""'Generate a level like this at difficulty X' in the workshop and the workbench (no browser)."""

from __future__ import annotations

from labkit.hexpuzzle import Level, generate, score, solve


def test_workshop_generates_a_level_like_this_and_opens_it():
    from labkit.widgets import LevelWorkshop

    ws = LevelWorkshop(radius=3)
    panel = ws.target_panel
    assert panel.radius() == 3
    seen = []
    panel.on_level = lambda lv: (seen.append(lv), ws._take(lv))
    panel.target.value = 55
    level = panel.generate()
    assert abs(score(level).total - 55) <= 2 and len(level.board) == 37
    assert ws.level.board == level.board and ws.difficulty.total == score(level).total
    assert panel.seed.value == 1 and panel.bar.bar_style == "success"
    assert f"score {score(level).total} for target 55" in panel.status.value
    again = panel.generate(55)  # the next seed: another level
    assert again.board != level.board and len(seen) == 2


def test_a_missed_target_says_so_and_opens_nothing():
    from labkit.widgets import LevelWorkshop

    ws = LevelWorkshop(radius=2)
    before = ws.level
    ws.target_panel.time_limit = 0.3
    assert ws.target_panel.generate(99) is None
    assert "not found" in ws.target_panel.status.value and ws.target_panel.bar.bar_style == "danger"
    assert ws.level == before and not ws.target_panel.button.disabled


def test_workbench_opens_the_new_level_in_a_workshop():
    from labkit.widgets import DifficultyWorkbench, LevelWorkshop

    levels = [generate(1, radius=2, tiles=5), generate(2, radius=3, tiles=9)]
    bench = DifficultyWorkbench(levels)
    bench.like.value = 1
    assert bench.liked() is levels[1] and bench.target_panel.radius() == 3
    level = bench.target_panel.generate(45)
    assert isinstance(bench.workshop, LevelWorkshop) and bench.workshop.level == Level.from_json(
        bench.workshop.document()
    )
    assert bench.workshop_box.children == (bench.workshop.ui,)
    assert bench.workshop.level.board == level.board and solve(bench.workshop.level).solved
    assert len(level.board) == 37 and abs(score(level).total - 45) <= 2


def test_generate_like_this_takes_the_board_and_the_rotations():
    from labkit.widgets import LevelWorkshop

    ws = LevelWorkshop(radius=3)
    panel = ws.target_panel
    panel.board.value, panel.rotations.value = 2, 1  # 19 cells, exactly one rotation
    assert panel.radius() == 2
    level = panel.generate(40)
    assert level is not None, panel.status.value
    assert len(level.board) == 19 and score(level).R == 1
    assert abs(score(level).total - 40) <= 2


def test_generate_like_this_takes_a_tile_count():
    from labkit.widgets import LevelWorkshop

    liked = generate(3, radius=2, tiles=6)
    ws = LevelWorkshop(liked)
    panel = ws.target_panel
    panel.tiles.value = -1  # "as the level"
    assert panel.tile_count() == 6
    panel.tiles.value = 7
    level = panel.generate(45)
    assert level is not None, panel.status.value
    assert len(level.tiles) == 7 and abs(score(level).total - 45) <= 2


def test_a_board_rotations_and_tiles_that_cannot_go_together_are_refused_in_words():
    from labkit.widgets import LevelWorkshop

    panel = LevelWorkshop(radius=2).target_panel
    panel.rotations.value, panel.tiles.value = 3, 2  # three rotations need four tiles
    assert panel.generate(45) is None
    assert "not found" in panel.status.value and "at least 4 tiles" in panel.status.value
    assert panel.level is None and not panel.button.disabled


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def test_workbench_shows_its_level_without_a_second_difficulty_slider():
    from labkit.widgets import DifficultyWorkbench

    bench = DifficultyWorkbench([generate(1, radius=2, tiles=5)])
    bench.target_panel.target.value = 45
    assert bench.target_panel.generate() is not None
    sliders = [x for x in _walk(bench.ui) if getattr(x, "description", "") == "difficulty"]
    assert sliders == [bench.target_panel.target] and sliders[0].value == 45


def test_the_generated_level_goes_into_a_chosen_campaign_slot_and_is_saved(tmp_path):
    from labkit.hexpuzzle import Campaign
    from labkit.widgets import DifficultyWorkbench

    same = DifficultyWorkbench([generate(1, radius=2, tiles=5), generate(2, radius=2, tiles=6)])
    same.target_panel.level = generate(3, radius=2, tiles=5).replace(id="like-0")
    same.campaign.path.value = str(tmp_path / "none.json")
    assert same.campaign.put() is None and "same id" in same.campaign.status.value
    levels = [generate(1, radius=2, tiles=5).replace(id="first"),
              generate(2, radius=2, tiles=6).replace(id="second")]  # fmt: skip
    bench = DifficultyWorkbench(levels)
    path = tmp_path / "my-campaign.json"
    camp = bench.campaign
    camp.path.value = str(path)
    assert camp.put() is None and "generate like this" in camp.status.value and not path.exists()
    level = bench.target_panel.generate(45)
    camp.slot.value = 2
    camp.put()
    saved = Campaign.load(path)
    assert [lv.id for lv in saved] == [levels[0].id, level.id] and saved[1] == level
    assert saved.slots[level.id] == 1  # it took over the replaced level's generator slot
    assert f"saved {path.resolve()}" in camp.status.value and "slot 2" in camp.status.value
    assert "<br" not in camp.status.value and "\n" not in camp.status.value
    before = path.read_bytes()
    for bad in (0, 4, -1):
        camp.slot.value = bad
        assert camp.put() is None
        assert f"slot {bad} is not in {path}: it has 2 levels, so choose 1–3" in camp.status.value
    assert path.read_bytes() == before
    camp.slot.value = 3  # one past the last would add it, but it is in slot 2 already
    assert camp.put() is None and f"already holds {level.id} in slot 2" in camp.status.value
    again = bench.target_panel.generate(45)  # the next seed: another id, added at the end
    assert [lv.id for lv in camp.put()] == [levels[0].id, level.id, again.id]
    assert "at the end" in camp.status.value


def test_a_level_put_out_of_order_warns_and_the_table_follows_the_campaign(tmp_path):
    # issue 47: a score-54 level went between 43 and 46 without a word, and the workbench's
    # table kept showing the level it replaced
    import re

    from labkit.widgets import DifficultyWorkbench

    levels = [generate(1, radius=2, tiles=8).replace(id="a"),  # scores 38, 43, 44, 46
              generate(1, radius=2, tiles=6).replace(id="b"),
              generate(3, radius=2, tiles=4).replace(id="c"),
              generate(2, radius=2, tiles=9).replace(id="d")]  # fmt: skip
    assert [score(lv).total for lv in levels] == [38, 43, 44, 46]
    new = generate(2, radius=2, tiles=5).replace(id="new")
    assert score(new).total == 54
    bench = DifficultyWorkbench(levels)
    bench.target_panel.level = new
    camp = bench.campaign
    camp.path.value, camp.slot.value = str(tmp_path / "season.json"), 3
    assert camp.put() is not None
    said = re.sub(r"<[^>]+>", "", camp.status.value)
    assert "out of order" in said and "54" in said and "43" in said and "46" in said
    assert [r["id"] for r in sorted(bench.ranking(), key=lambda r: r["was"])] == [
        "a", "b", "new", "d"]  # fmt: skip
    assert ">new<" in bench.table.value and ">c<" not in bench.table.value
    # in order (after the last, 54 ≥ 46): no warning
    again = generate(7, radius=2, tiles=6).replace(id="last")  # scores 54
    bench.target_panel.level = again
    camp.slot.value = 5
    assert camp.put() is not None and "out of order" not in camp.status.value
    assert bench.ids == ["a", "b", "new", "d", "last"]
    # the code button rebuilds the workbench as it follows the campaign file
    rebuilt: dict = {}
    exec(bench.to_code(), rebuilt)
    assert rebuilt["bench"].ids == bench.ids and rebuilt["bench"].table.value == bench.table.value
