"""
Engine-level reference for `npm run bench`: wasmtime embedded (PyPI `wasmtime`, component API) runs
the same command component the way toolhost does, a fresh Store + instance + `wasi:cli/run` per
call, stdout captured in memory. The component is compiled once; calls run one at a time on one
thread. Prints one JSON line: {"times_ms": [...], "seconds": float, "stdout": "<first call's stdout>"}.

Usage: python wasmtime-embedded.py <component.wasm> <calls> <warmup> [tool args...]
"""
import json
import sys
import time

from wasmtime import Config, Engine, Store, WasiConfig
from wasmtime.component import Component, Linker


def main() -> None:
    path, calls, warmup, *tool_args = sys.argv[1:]
    engine = Engine(Config())
    component = Component.from_file(engine, path)
    linker = Linker(engine)
    linker.add_wasip2()
    # The export's version is the component's own (0.2.x); find it instead of hard-coding it.
    run_name = next(name for name in component.type.exports(engine) if name.startswith('wasi:cli/run@'))
    instance_index = component.get_export_index(run_name)
    run_index = component.get_export_index('run', instance_index)
    captured: list = []

    def call() -> None:
        chunks: list = []
        wasi = WasiConfig()
        wasi.argv = ['rt-echo', *tool_args]
        wasi.stdout_custom = chunks.append
        store = Store(engine)
        store.set_wasi(wasi)
        instance = linker.instantiate(store, component)
        run = instance.get_func(store, run_index)
        result = run(store)
        run.post_return(store)
        if not captured:
            captured.append(b''.join(chunks).decode())
        if result is not None and getattr(result, 'tag', 'ok') != 'ok':
            raise RuntimeError(f'wasi:cli/run returned {result!r}')

    for _ in range(int(warmup)):
        call()
    times = []
    started = time.perf_counter()
    for _ in range(int(calls)):
        begin = time.perf_counter()
        call()
        times.append((time.perf_counter() - begin) * 1000)
    seconds = time.perf_counter() - started
    print(json.dumps({'times_ms': times, 'seconds': seconds, 'stdout': captured[0] if captured else ''}))


main()
