"""sqlite3 on the static site: a stand-in, with no SQLite (``site/site_wheels.py``, ``pins.json``).

The Pyodide kernel loads ``sqlite3`` as it starts for IPython's history alone, which the kernel
turns off; IPython's history module still imports ``sqlite3`` and names these. The real package's
1.4 MB of WebAssembly were compiled on every visit for nothing. Opening a database fails.
"""


class Error(Exception):
    """The base of sqlite3's errors."""


class DatabaseError(Error):
    pass


class OperationalError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class Connection:
    """No connection is ever made here."""


PARSE_DECLTYPES = 1
PARSE_COLNAMES = 2


def connect(*args: object, **kwargs: object) -> Connection:
    raise OperationalError("SQLite is not part of this site (site/stand_ins/sqlite3.py)")
