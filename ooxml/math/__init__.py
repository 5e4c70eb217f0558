"""Office Math (OMML) and LaTeX: ``to_latex`` reads ``m:oMath``/``m:oMathPara`` as LaTeX,
``from_latex`` writes LaTeX as OMML (the common subset by ``fast_latex``, the rest parsed by latex2mathml,
then our MathML -> OMML mapping).

Modules: ``symbols.py`` Unicode <-> LaTeX commands, ``to_latex.py`` OMML -> LaTeX,
``mathml.py`` MathML -> OMML, ``from_latex.py`` LaTeX checked and parsed, ``fast_latex.py`` LaTeX ->
OMML directly (``probes.py`` latex2mathml's answer for one symbol), ``legacy.py`` old
``Equation.3`` OLE objects. Nothing here knows MCP or edits a document.
"""
