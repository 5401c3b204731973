"""`make book` prints an edition's PDF again only when what it is printed from changed
(``attention_workshop.build_pdf.print_changed`` and ``inputs_digest``): its built pages, the print's style and code,
the site's address. Tried on a small built site in a temporary folder, with a printer that writes a stand-in PDF
(no Chromium): a second run with nothing changed prints nothing and still puts each PDF into its edition's folder
of the site; a changed page of one edition prints that edition alone; a changed script, or a file no page loads,
prints nothing; a changed file the shared stylesheet loads, or another address, prints every edition."""

from __future__ import annotations

import pathlib

from attention_workshop import build_pdf
from attention_workshop.ae_lang import pdf_name
from attention_workshop.paths import ENGLISH, editions


def stand_in(out: pathlib.Path, edition: str, site_url: str) -> pathlib.Path:
    """A printer for the test: writes a PDF naming the edition and the address, and notes that it printed."""
    pdf = out / "_build" / "pdf" / pdf_name(edition)
    pdf.parent.mkdir(parents=True, exist_ok=True)
    pdf.write_text(f"%PDF {edition} {site_url}\n", encoding="utf-8")
    with open(out / "printed.log", "a", encoding="utf-8") as log:
        log.write(edition + "\n")
    return pdf


def page(edition: str, text: str) -> str:
    """A built intro page of ``edition``: it loads the English folder's stylesheet (as every edition's pages do once
    ``ae_seo`` shares the files) and a script, which it also preloads (as the theme's pages do)."""
    up = "../" if edition == ENGLISH else "../../"
    script = f"{up}_static/ae-site.js"
    return (
        f'<link rel="stylesheet" href="{up}_static/ae-styles.css"><link rel="preload" as="script" href="{script}">'
        f'<script src="{script}"></script><p>{text}</p>'
    )


def site(out: pathlib.Path) -> pathlib.Path:
    html = out / "_build" / "html"
    for edition in editions():
        folder = html if edition == ENGLISH else html / edition
        (folder / "book").mkdir(parents=True, exist_ok=True)
        (folder / "book" / "intro.html").write_text(page(edition, edition), encoding="utf-8")
    (html / "_static").mkdir(exist_ok=True)
    (html / "_static" / "ae-styles.css").write_text("p{background:url(logo.png)}", encoding="utf-8")
    (html / "_static" / "logo.png").write_bytes(b"png")
    (html / "_static" / "ae-site.js").write_text("let a;", encoding="utf-8")
    return html


def printed(out: pathlib.Path, site_url: str = "") -> list[str]:
    log = out / "printed.log"
    log.unlink(missing_ok=True)
    results = build_pdf.print_changed(out, site_url, printer=stand_in)
    assert [pdf.name for pdf, _ in results] == [pdf_name(e) for e in editions()]
    done = log.read_text(encoding="utf-8").split() if log.exists() else []
    assert sorted(done) == sorted(e for e, (_, now) in zip(editions(), results, strict=True) if now)
    return sorted(done)


def test_an_edition_is_printed_again_only_when_what_it_is_printed_from_changed(tmp_path):
    html = site(tmp_path)
    assert printed(tmp_path) == sorted(editions()), "the first run prints every edition"
    zh = html / "zh"
    (zh / "attention-executable-zh.pdf").unlink()  # build_book wrote the edition's folder again
    assert printed(tmp_path) == [], "nothing changed: nothing printed"
    assert (zh / "attention-executable-zh.pdf").read_text(encoding="utf-8").startswith("%PDF zh"), "the site has it"
    (zh / "book" / "intro.html").write_text(page("zh", "zh, changed"), encoding="utf-8")
    assert printed(tmp_path) == ["zh"], "a changed page of one edition prints that edition alone"
    (html / "book" / "intro.html").write_text(page(ENGLISH, "en, changed"), encoding="utf-8")
    assert printed(tmp_path) == [ENGLISH], "the English folder holds the others: their pages are not the English's"
    (html / "_static" / "ae-site.js").write_text("let b;", encoding="utf-8")
    (html / "_static" / "pygments.css").write_text("p{}", encoding="utf-8")
    assert printed(tmp_path) == [], "a script (the print has none), a file no page loads"
    (html / "_static" / "logo.png").write_bytes(b"png, changed")
    assert printed(tmp_path) == sorted(editions()), "what the stylesheet every edition's pages load loads"
    assert printed(tmp_path, "https://example.org/b/") == sorted(editions()), "another address"


def half_printed(out: pathlib.Path, edition: str, site_url: str) -> pathlib.Path:
    """A printer stopped half-way (killed, out of disk): a truncated PDF, then an error."""
    pdf = out / "_build" / "pdf" / pdf_name(edition)
    pdf.write_text("%PDF trunc", encoding="utf-8")
    raise OSError(28, "No space left on device")


def test_a_print_stopped_half_way_is_printed_again_even_when_its_pages_are_back_as_they_were(tmp_path):
    out = tmp_path
    html = site(out)
    assert printed(out) == sorted(editions())
    intro = html / "book" / "intro.html"
    before = intro.read_text(encoding="utf-8")
    intro.write_text(page(ENGLISH, "changed"), encoding="utf-8")
    try:
        build_pdf.print_changed(out, "", printer=half_printed)
    except OSError:
        pass
    else:
        raise AssertionError("the stopped print did not stop the build")
    intro.write_text(before, encoding="utf-8")  # the pages the last whole print was made from
    assert printed(out) == [ENGLISH]  # not "unchanged": the half-written PDF is printed again
    assert (out / "_build" / "pdf" / pdf_name(ENGLISH)).read_text(encoding="utf-8").startswith(f"%PDF {ENGLISH}")
