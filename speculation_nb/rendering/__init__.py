"""Drawing as text: cards and the card table as SVG/HTML (:mod:`.cards`), what the charts share
(:mod:`.chart_style`), the poll's bars (:mod:`.poll_chart`) and the table's QR code (:mod:`.qr`).
Pure functions returning strings: a notebook, a widget or a saved page can show them.
"""
