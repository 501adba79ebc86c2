"""column-stats: count, mean, min and max of a numeric CSV column, as JSON."""
import csv
import json
import sys


def column_stats(path, column):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or column not in reader.fieldnames:
            raise SystemExit(f"error: no column {column!r} in {path}")
        values, skipped = [], 0
        for row in reader:
            cell = (row.get(column) or "").strip()
            try:
                values.append(float(cell))
            except ValueError:
                skipped += 1
    if not values:
        return {"column": column, "count": 0, "skipped": skipped, "mean": None, "min": None, "max": None}
    return {
        "column": column,
        "count": len(values),
        "skipped": skipped,
        "mean": round(sum(values) / len(values), 6),
        "min": min(values),
        "max": max(values),
    }


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: main.py FILE COLUMN")
    print(json.dumps(column_stats(argv[0], argv[1])))


if __name__ == "__main__":
    main(sys.argv[1:])
