"""What every screen of the app shares: widget parts and escaping (:mod:`.parts`), the
confirm row (:mod:`.confirm`), panels built on first open (:mod:`.panel`,
:mod:`.panel_opener`), keys and the live region (:mod:`.keys`), what a page keeps on its device
(:mod:`.device_memory`), the page's address in the browser (:mod:`.address_bar`) and the stylesheet (:mod:`.style`).
"""
