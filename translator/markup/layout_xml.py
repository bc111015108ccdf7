"""The layout XML Aminduna stores and lays out, both ways.

:func:`to_xml` writes a document as the reference's ``MarkdownRender.ToXml`` does
(compact: the reference's root holds an empty text node, which stops .NET from
indenting anything).  :func:`to_markdown` is the reference's reverse converter
(``XmlRender.ToMarkdown``), bugs included: it keeps only the first letter of a drop
cap, upper-cases it, does not escape text and writes CRLF line ends.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..errors import UserError
from .tree import SYMBOL_CODES, Document, DropCap, Inline, LineBreak, Paragraph, Symbol, Text

_TEXT_TAGS = {"n": (False, False), "b": (True, False), "i": (False, True), "bi": (True, True)}


def escape_text(text: str) -> str:
    """Escape text content as .NET's XmlWriter does (quotes stay as they are)."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if "\r" in text:
        text = text.replace("\r", "&#xD;")
    return text


def _inline_xml(node: Inline) -> str:
    if isinstance(node, Text):
        tag = node.style
        return f"<{tag}>{escape_text(node.text)}</{tag}>"
    if isinstance(node, DropCap):
        return f"<c>{escape_text(node.letter)}</c>"
    if isinstance(node, Symbol):
        return f"<{node.code} />"
    return "<br />"


def paragraph_xml(paragraph: Paragraph) -> str:
    if not paragraph.children:
        return "<p></p>" if paragraph.emptied else "<p />"
    return "<p>" + "".join(_inline_xml(node) for node in paragraph.children) + "</p>"


def to_xml(document: Document) -> str:
    """The layout XML the reference produces for this document."""
    return "<layout>" + "".join(paragraph_xml(p) for p in document.paragraphs) + "</layout>"


class LayoutXmlError(UserError, ValueError):
    """The XML is not a layout document; ``line`` and ``column`` say where."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def _parse_xml(xml: str) -> ET.Element:
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as error:
        line, column = error.position
        reason = str(error).split(":")[0]
        raise LayoutXmlError(
            f"not well-formed XML ({reason}); expected Aminduna's layout "
            "XML, <layout><p>...</p></layout>",
            line,
            column + 1,
        ) from None
    return root


def _text_value(element: ET.Element) -> str:
    """The element's own text nodes (not its children's), unescaped."""
    parts = [element.text or ""]
    parts.extend(child.tail or "" for child in element)
    return "".join(parts)


def _reference_text_value(element: ET.Element) -> str:
    """``XmlRender.TextValue``: it appends ``XText`` objects to a StringBuilder, which
    writes them XML-escaped, so ``<`` comes back as ``&lt;`` (and parses back to ``<``:
    the markdown side decodes entities)."""
    return escape_text(_text_value(element))


def _dotnet_upper_first(text: str) -> str:
    """``text.ToUpper().First()``: .NET maps characters one to one (``ß`` stays)."""
    first = text[0]
    upper = first.upper()
    return upper if len(upper) == 1 else first


def to_markdown(xml: str) -> str:
    """``XmlRender.ToMarkdown``: the reference's layout XML → markdown conversion."""
    root = _parse_xml(xml)
    paragraphs: list[str] = []
    for paragraph in root.findall("p"):
        line = ""
        for element in paragraph:
            tag = element.tag
            if tag == "c":
                value = _reference_text_value(element)
                if not value:
                    raise LayoutXmlError(
                        "a <c> element is empty: the reference converter "
                        "fails on it (it needs one letter)"
                    )
                line += f":{_dotnet_upper_first(value)}:"
            elif tag in SYMBOL_CODES:
                line += f":{tag}:"
            elif tag == "n":
                line += _reference_text_value(element)
            elif tag == "b":
                line += f"**{_reference_text_value(element)}**"
            elif tag == "i":
                line += f"*{_reference_text_value(element)}*"
            elif tag == "bi":
                line += f"***{_reference_text_value(element)}***"
            elif tag == "br":
                line += ":br:"
        line = line.replace(":br:", "\\\r\n")
        paragraphs.append(line or "\\")
    return "\r\n\r\n".join(paragraphs)


@dataclass(frozen=True, slots=True)
class UnknownElement:
    """An element of a layout XML that the layout ignores."""

    tag: str
    paragraph: int


def from_xml(xml: str) -> tuple[Document, list[UnknownElement]]:
    """Read a layout XML into a document (what the layout would print from it)."""
    root = _parse_xml(xml)
    if root.tag != "layout":
        raise LayoutXmlError(f"the root element is <{root.tag}>, not <layout>")
    unknown: list[UnknownElement] = []
    paragraphs: list[Paragraph] = []
    for index, paragraph in enumerate(root):
        if paragraph.tag != "p":
            unknown.append(UnknownElement(paragraph.tag, index))
            continue
        children: list[Inline] = []
        for element in paragraph:
            tag = element.tag
            if tag in _TEXT_TAGS:
                bold, italic = _TEXT_TAGS[tag]
                children.append(Text(_text_value(element), bold, italic))
            elif tag == "c":
                children.append(DropCap(_text_value(element)))
            elif tag in SYMBOL_CODES:
                children.append(Symbol(tag))
            elif tag == "br":
                children.append(LineBreak())
            else:
                unknown.append(UnknownElement(tag, index))
        paragraphs.append(Paragraph(tuple(children)))
    return Document(tuple(paragraphs)), unknown
