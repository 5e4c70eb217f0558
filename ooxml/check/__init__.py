"""docx_check's rules: what makes Word refuse or repair a file (``word_*``), what Word's Accessibility
Checker and WCAG 2.1 ask (``access_*``), and the repairs that change no text (``repair*``).
``run.check(doc, rules)`` gives the findings (``findings.Finding``)."""
