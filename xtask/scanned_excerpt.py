#!/usr/bin/python3
"""The project's scanned test corpus, made from the Octave manual (never checked in).

Writes into OUT (default target/scanned):
  octave-325-370-text.pdf     physical pages 325-370 with their text layer (qpdf)
  octave-325-370-scanned.pdf  the same pages as images only: rendered at 150 dpi in grey
                              (pdftoppm), some turned by a degree, blurred or given noise
                              (Pillow), saved as JPEG and put together by img2pdf

Does nothing when both files exist. Needs poppler-utils, qpdf, img2pdf and python3-pil
(Debian; `cargo xtask setup` installs them). Deterministic: the noise has a fixed seed per page.
Captions on excerpt pages 8, 13, 25, 29 (Figures 15.1-15.4).
"""
import os
import random
import subprocess
import sys
import tempfile

from PIL import Image, ImageFilter

FIRST, LAST = 325, 370
DPI = 150


def distort(index, image):
    """Page `index` (1-based in the excerpt): every third page from 2 turned by one degree,
    every third from 1 blurred, every odd page given specks of dust (0.1% of its pixels)."""
    if index % 3 == 2:
        image = image.rotate(1.0, resample=Image.BICUBIC, fillcolor=255)
    if index % 3 == 1:
        image = image.filter(ImageFilter.GaussianBlur(radius=0.6))
    if index % 2 == 1:
        rng = random.Random(index)
        pixels = image.load()
        width, height = image.size
        for _ in range(width * height // 1000):
            x, y = rng.randrange(width), rng.randrange(height)
            pixels[x, y] = rng.choice((0, 255))
    return image


def main():
    manual = os.environ.get("FIGEVAL_OCTAVE_PDF", "/usr/share/doc/octave/octave.pdf")
    out = sys.argv[1] if len(sys.argv) > 1 else "target/scanned"
    text_pdf = os.path.join(out, "octave-325-370-text.pdf")
    scanned_pdf = os.path.join(out, "octave-325-370-scanned.pdf")
    if os.path.exists(text_pdf) and os.path.exists(scanned_pdf):
        return
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out) as work:
        text_tmp = os.path.join(work, "text.pdf")
        subprocess.run(
            ["qpdf", "--empty", "--pages", manual, f"{FIRST}-{LAST}", "--", text_tmp],
            check=True,
        )
        subprocess.run(
            ["pdftoppm", "-r", str(DPI), "-gray", "-f", str(FIRST), "-l", str(LAST),
             manual, os.path.join(work, "p")],
            check=True,
            stderr=subprocess.DEVNULL,
        )
        rendered = sorted(f for f in os.listdir(work) if f.endswith(".pgm"))
        if len(rendered) != LAST - FIRST + 1:
            sys.exit(f"pdftoppm wrote {len(rendered)} pages, expected {LAST - FIRST + 1}")
        jpegs = []
        for index, name in enumerate(rendered, start=1):
            with Image.open(os.path.join(work, name)) as page:
                jpeg = os.path.join(work, f"{index:03}.jpg")
                distort(index, page.convert("L")).save(jpeg, "JPEG", quality=75)
                jpegs.append(jpeg)
        scanned_tmp = os.path.join(work, "scanned.pdf")
        subprocess.run(["img2pdf", *jpegs, "-o", scanned_tmp], check=True)
        os.replace(text_tmp, text_pdf)
        os.replace(scanned_tmp, scanned_pdf)


if __name__ == "__main__":
    main()
