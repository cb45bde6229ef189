"""The device memory (widgets/device_memory.py) from the kernel's side: what the browser
reports is taken as the device's value, what the kernel sets is kept until the browser
confirms, private mode loses nothing and fails nowhere (T8 keeps the rejoin token there)."""

from __future__ import annotations

import pytest

from speculation_nb.app.common.device_memory import ESM, DeviceMemory, dump_memory, read_memory


def browser_reads(memory: DeviceMemory, stored: str | None, available: bool = True) -> None:
    """What the ES module sends when its view renders and the kernel set nothing before."""
    value = "" if stored is None else stored
    memory.set_state({"value": value, "written": value, "loaded": True, "available": available})


def browser_stores(memory: DeviceMemory) -> None:
    """What the ES module sends after writing the kernel's value."""
    memory.set_state({"written": memory.value, "pending": False, "loaded": True, "available": True})


def test_t8_the_browser_value_arrives_with_loaded() -> None:
    memory = DeviceMemory("speculation_nb.classroom.ABCDEFGHJK")
    seen: list[str] = []
    memory.observe(lambda change: seen.append(memory.value), "loaded")
    assert not memory.loaded and memory.value == ""
    browser_reads(memory, dump_memory({"member": "m1", "token": "t" * 32}))
    assert seen == [memory.value]
    assert memory.kept() == {"member": "m1", "token": "t" * 32}
    assert memory.confirmed and not memory.pending


def test_t8_a_value_the_kernel_sets_is_pending_until_the_browser_stores_it() -> None:
    memory = DeviceMemory("k")
    memory.keep({"member": "m2", "token": "x" * 32})
    assert memory.pending and not memory.confirmed
    browser_stores(memory)
    assert memory.confirmed and memory.kept() == {"member": "m2", "token": "x" * 32}
    memory.keep(None)
    assert memory.value == "" and memory.pending
    browser_stores(memory)
    assert memory.confirmed and memory.kept() is None


def test_t8_private_mode_loads_empty_without_error() -> None:
    memory = DeviceMemory("k")
    browser_reads(memory, None, available=False)
    assert memory.loaded and not memory.available and memory.value == ""


def test_t8_the_module_writes_a_pending_value_instead_of_reading() -> None:
    # the ES module: a pending value is written on render, "" removes the entry
    assert 'model.get("pending")' in ESM and "removeItem" in ESM and "setItem" in ESM
    assert "import " not in ESM.replace("export default", "")  # nothing fetched


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "3", '"s"'])
def test_t8_a_device_entry_that_is_not_an_object_reads_as_nothing(text: str) -> None:
    assert read_memory(text) is None


def test_a_device_memory_needs_a_key() -> None:
    with pytest.raises(ValueError):
        DeviceMemory("")


def test_t8_without_anywidget_the_device_keeps_nothing_and_nothing_fails() -> None:
    import os
    import subprocess
    import sys

    script = (
        "import sys; sys.modules['anywidget'] = None\n"
        "from speculation_nb.app.common.device_memory import DeviceMemory, HAVE_ANYWIDGET\n"
        "m = DeviceMemory('k'); m.keep({'member': 'm', 'token': 't'})\n"
        "print(HAVE_ANYWIDGET, m.loaded, m.available, m.kept() == {'member': 'm', 'token': 't'})\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ, timeout=300)
    assert done.stdout.split() == ["False", "True", "False", "True"], done.stderr
