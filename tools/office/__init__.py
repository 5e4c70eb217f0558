"""LibreOffice, the one service every part of the server reaches it through: finding soffice
(find.py), the profile it runs with (profile.py), the warm UNO worker (worker.py, a child process)
and conversions to PDF (service.py: ``Office``, one per server in ``Services.office``). Page renders
and TOC page numbers read the PDFs it makes (render/pages.py, render/page_layout.py)."""
