"""attention_core.files: a file is replaced whole or not at all."""

from __future__ import annotations

import os

import numpy as np
import pytest

from attention_core import files


def test_text_and_bytes_replace_the_file_and_leave_no_temporary(tmp_path):
    target = tmp_path / "a.txt"
    files.write_text(target, "old\n")
    files.write_text(target, "new\r\nline\n")
    assert target.read_bytes() == b"new\r\nline\n"  # written as given
    files.write_bytes(target, b"\x00\x01")
    assert target.read_bytes() == b"\x00\x01"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_an_error_inside_the_block_leaves_the_old_file(tmp_path):
    target = tmp_path / "a.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), files.replacing(target) as f:
        f.write("half of the new")
        raise RuntimeError("killed")
    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["a.json"]


def test_numpy_writes_into_it_and_the_permissions_stay(tmp_path):
    target = tmp_path / "p.npz"
    target.write_bytes(b"")
    target.chmod(0o640)
    with files.replacing(target, "wb") as f:
        np.savez_compressed(f, w=np.arange(3.0))
    assert (target.stat().st_mode & 0o777) == 0o640
    assert np.load(target)["w"].tolist() == [0.0, 1.0, 2.0]


def test_a_wrong_mode_is_refused(tmp_path):
    with pytest.raises(ValueError, match="mode must be"), files.replacing(tmp_path / "x", "a"):
        pass
