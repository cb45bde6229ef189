"""One table, many devices: the shared table a whole class sits at (see ``docs/TABLE.md``).

The teacher's kernel is the table's only referee (:mod:`.referee`); the students' kernels are
its members (:mod:`.member`); they meet in a store every kernel can reach (:mod:`.store`).
Nothing here imports ipywidgets: the app's views of a table are in ``speculation_nb.widgets``.
"""
