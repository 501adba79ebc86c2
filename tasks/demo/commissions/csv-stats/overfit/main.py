"""column-stats: count, mean, min and max of a CSV column (simple comma splitting)."""
import json
import sys

path, column = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    lines = f.read().splitlines()
header = lines[0].split(",")
i = header.index(column)
values = [float(line.split(",")[i]) for line in lines[1:] if line]
print(json.dumps({"column": column, "count": len(values), "skipped": 0,
                  "mean": round(sum(values) / len(values), 6), "min": min(values), "max": max(values)}))
