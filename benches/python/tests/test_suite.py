"""Suites from Python: records as dicts, or a pandas DataFrame."""

from __future__ import annotations

from pathlib import Path

import pytest

import searchlab


def test_a_slice_of_the_default_suite() -> None:
    records = searchlab.run_suite(configs=["fwd-astar-hmax", "reg-astar-hmax"], problems=["hungry-agent", "hitman"], jobs=2)
    assert len(records) == 4
    assert {(r["problem"], r["config"]) for r in records} == {
        (p, c) for p in ["hungry-agent", "hitman"] for c in ["fwd-astar-hmax", "reg-astar-hmax"]
    }
    costs = {r["problem"]: r["cost"] for r in records}
    assert costs == {"hungry-agent": 30, "hitman": 15}
    assert all(r["outcome"] == "solved" and r["validated"] for r in records)


def test_a_suite_file(root: Path) -> None:
    records = searchlab.run_suite(root / "benches/suites/lab-check.toml", configs=["fwd-astar-hmax"], problems=["hungry-agent"])
    assert [r["cost"] for r in records] == [30]


def test_records_as_a_dataframe() -> None:
    pandas = pytest.importorskip("pandas")
    records = searchlab.run_suite(configs=["fwd-astar-hmax"], problems=["hungry-agent"])
    frame = records.to_dataframe()
    assert isinstance(frame, pandas.DataFrame)
    assert frame.loc[0, "cost"] == 30 and frame.loc[0, "config"] == "fwd-astar-hmax"
