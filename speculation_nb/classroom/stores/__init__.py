"""Where a shared table lives: the store interface and the in-memory store (:mod:`.base`), one
SQLite file for one server (:mod:`.sqlite_store`, woken by :mod:`.file_watch`), Redis for a hub
(:mod:`.redis_store`).
"""
