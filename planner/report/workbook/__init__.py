"""The workbook finance recalculates: its sheets, live formulas and defined names
(`planner.report.excel.write_xlsx` assembles them)."""
