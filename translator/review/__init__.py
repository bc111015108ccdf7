"""Review sheets: what a proofreader looks at before a deck goes to print.

from translator.review import sheet
renders = sheet.render_cards(library, "fr", Path("out/review/build"), options, 96)
page = sheet.make_sheet(library, "sample", "fr", resources, lint_options, renders,
                        Path("out/review"))
sheet.write_sheet(page, Path("out/review"))
"""
