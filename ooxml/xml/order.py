"""The one place that knows the schema order of property children (wml.xsd sequences).

Word refuses or repairs files whose ``w:pPr``/``w:tblPr``/``w:trPr``/``w:tcPr``/``w:sectPr``
children are out of order; ``w:rPr`` is a choice in the transitional schema but Word writes
the canonical order, so we do too. Every edit that adds a property goes through
``set_child``/``insert_child`` here.
"""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import W, w

_SEQ = {
    "pPr": "pStyle keepNext keepLines pageBreakBefore framePr widowControl numPr suppressLineNumbers "
           "pBdr shd tabs suppressAutoHyphens kinsoku wordWrap overflowPunct topLinePunct autoSpaceDE "
           "autoSpaceDN bidi adjustRightInd snapToGrid spacing ind contextualSpacing mirrorIndents "
           "suppressOverlap jc textDirection textAlignment textboxTightWrap outlineLvl divId cnfStyle "
           "rPr sectPr pPrChange",
    "rPr": "ins del moveFrom moveTo rStyle rFonts b bCs i iCs caps smallCaps strike dstrike outline "
           "shadow emboss imprint noProof snapToGrid vanish webHidden color spacing w kern position "
           "sz szCs highlight u effect bdr shd fitText vertAlign rtl cs em lang eastAsianLayout "
           "specVanish oMath rPrChange",
    "tblPr": "tblStyle tblpPr tblOverlap bidiVisual tblStyleRowBandSize tblStyleColBandSize tblW jc "
             "tblCellSpacing tblInd tblBorders shd tblLayout tblCellMar tblLook tblCaption "
             "tblDescription tblPrChange",
    "trPr": "cnfStyle divId gridBefore gridAfter wBefore wAfter cantSplit trHeight tblHeader "
            "tblCellSpacing jc hidden ins del trPrChange",
    "tcPr": "cnfStyle tcW gridSpan hMerge vMerge tcBorders shd noWrap tcMar textDirection tcFitText "
            "vAlign hideMark headers cellIns cellDel cellMerge tcPrChange",
    "sectPr": "headerReference footerReference footnotePr endnotePr type pgSz pgMar paperSrc "
              "pgBorders lnNumType pgNumType cols formProt vAlign noEndnote titlePg textDirection "
              "bidi rtlGutter docGrid printerSettings sectPrChange",
    "settings": "writeProtection view zoom removePersonalInformation removeDateAndTime "
                "doNotDisplayPageBoundaries displayBackgroundShape printPostScriptOverText "
                "printFractionalCharacterWidth printFormsData embedTrueTypeFonts embedSystemFonts "
                "saveSubsetFonts saveFormsData mirrorMargins alignBordersAndEdges bordersDoNotSurroundHeader "
                "bordersDoNotSurroundFooter gutterAtTop hideSpellingErrors hideGrammaticalErrors "
                "activeWritingStyle proofState formsDesign attachedTemplate linkStyles stylePaneFormatFilter "
                "stylePaneSortMethod documentType mailMerge revisionView trackRevisions doNotTrackMoves "
                "doNotTrackFormatting documentProtection autoFormatOverride styleLockTheme styleLockQFSet "
                "defaultTabStop autoHyphenation consecutiveHyphenLimit hyphenationZone doNotHyphenateCaps "
                "showEnvelope summaryLength clickAndTypeStyle defaultTableStyle evenAndOddHeaders "
                "bookFoldRevPrinting bookFoldPrinting bookFoldPrintingSheets drawingGridHorizontalSpacing "
                "drawingGridVerticalSpacing displayHorizontalDrawingGridEvery displayVerticalDrawingGridEvery "
                "doNotUseMarginsForDrawingGridOrigin drawingGridHorizontalOrigin drawingGridVerticalOrigin "
                "doNotShadeFormData noPunctuationKerning characterSpacingControl printTwoOnOne "
                "strictFirstAndLastChars noLineBreaksAfter noLineBreaksBefore savePreviewPicture "
                "doNotValidateAgainstSchema saveInvalidXml ignoreMixedContent alwaysShowPlaceholderText "
                "doNotDemarcateInvalidXml saveXmlDataOnly useXSLTWhenSaving saveThroughXslt showXMLTags "
                "alwaysMergeEmptyNamespace updateFields hdrShapeDefaults footnotePr endnotePr compat docVars "
                "rsids mathPr attachedSchema themeFontLang clrSchemeMapping doNotIncludeSubdocsInStats "
                "doNotAutoCompressPictures forceUpgrade captions readModeInkLockDown smartTagType "
                "schemaLibrary shapeDefaults doNotEmbedSmartTags decimalSymbol listSeparator",
    "style": "name aliases basedOn next link autoRedefine hidden uiPriority semiHidden unhideWhenUsed qFormat "
             "locked personal personalCompose personalReply rsid pPr rPr tblPr trPr tcPr tblStylePr",
    "tblBorders": "top left start bottom right end insideH insideV",
    "tcBorders": "top left start bottom right end insideH insideV tl2br tr2bl",
    "pBdr": "top left bottom right between bar",
    "tblCellMar": "top left start bottom right end",
    "tcMar": "top left start bottom right end",
}
# Containers whose first children are fixed: (leading children in order), anything else after.
_LEADING = {
    "p": "pPr",
    "r": "rPr",
    "tbl": "tblPr tblGrid",
    "tr": "tblPrEx trPr",
    "tc": "tcPr",
    "sdt": "sdtPr sdtEndPr",
}

ORDER: dict[str, dict[str, int]] = {
    parent: {name: i for i, name in enumerate(seq.split())} for parent, seq in _SEQ.items()
}
LEADING: dict[str, dict[str, int]] = {
    parent: {name: i for i, name in enumerate(seq.split())} for parent, seq in _LEADING.items()
}


def _rank(parent_local: str, child: etree._Element) -> int | None:
    tag = child.tag
    if not isinstance(tag, str) or not tag.startswith(f"{{{W}}}"):
        return None
    name = tag[len(W) + 2:]
    if parent_local in ORDER:
        return ORDER[parent_local].get(name)
    return LEADING.get(parent_local, {}).get(name)


def insert_child(parent: etree._Element, child: etree._Element) -> etree._Element:
    """Insert ``child`` where the schema wants it among ``parent``'s children."""
    parent_local = etree.QName(parent).localname
    rank = _rank(parent_local, child)
    if rank is None:
        raise ValueError(f"no schema order known for {etree.QName(child).localname} in {parent_local}")
    for i, sibling in enumerate(parent):
        other = _rank(parent_local, sibling)
        if parent_local in LEADING:
            if other is None or other > rank:  # content starts, or a later leading child
                parent.insert(i, child)
                return child
        elif other is not None and other > rank:
            parent.insert(i, child)
            return child
    parent.append(child)
    return child


def get_or_add(parent: etree._Element, name: str) -> etree._Element:
    """The ``w:name`` child of ``parent``, created in schema order if missing."""
    found = parent.find(w(name))
    if found is not None:
        return found
    return insert_child(parent, etree.Element(w(name)))


def set_child(parent: etree._Element, name: str, **attrs: str) -> etree._Element:
    """Replace (or add) the ``w:name`` property with the given ``w:`` attributes."""
    existing = parent.find(w(name))
    new = etree.Element(w(name), {w(k): v for k, v in attrs.items()})
    if existing is not None:
        existing.addprevious(new)
        parent.remove(existing)
        return new
    return insert_child(parent, new)


def remove_child(parent: etree._Element, name: str) -> None:
    existing = parent.find(w(name))
    if existing is not None:
        parent.remove(existing)

