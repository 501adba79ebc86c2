#!/bin/sh
# Test suite for csvtool. Usage: ./test.sh   (AWK=gawk ./test.sh to pick an awk)
# Prints every failure with a diff-like report and "N passed, M failed";
# exits non-zero when a test fails.

cd "$(dirname "$0")" || exit 1
TOOL=./csvtool
FIX=tests
WORK=${TMPDIR:-/tmp}/csvtool-test.$$
mkdir -p "$WORK" || exit 1
trap 'rm -rf "$WORK"' EXIT INT TERM

pass=0
fail=0

ok() { pass=$((pass + 1)); }
ko() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$1"
	[ $# -ge 3 ] && printf -- '--- expected:\n%s\n--- got:\n%s\n' "$2" "$3"
}

# expect NAME EXPECTED_OUTPUT COMMAND...   (stdout must match exactly, exit 0)
expect() {
	name=$1
	want=$2
	shift 2
	got=$("$@" 2>"$WORK/err")
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok; else
		ko "$name (exit $rc: $(cat "$WORK/err"))" "$want" "$got"
	fi
}

# expect_fail NAME EXIT_CODE STDERR_SUBSTRING COMMAND...
expect_fail() {
	name=$1
	code=$2
	needle=$3
	shift 3
	"$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	err=$(cat "$WORK/err")
	lines=$(wc -l <"$WORK/err")
	case $err in
	*"$needle"*) found=1 ;;
	*) found=0 ;;
	esac
	if [ "$rc" -eq "$code" ] && [ "$found" -eq 1 ] && [ "$lines" -eq 1 ]; then ok; else
		ko "$name (exit $rc, want $code; stderr: $err)"
	fi
}

# ---------------------------------------------------------------- stats
expect "stats text output" "column: score
count: 5
sum: 1356.5
mean: 271.3
min: -3
max: 1100
median: 88.5
stddev: 464.899935
skipped: 1" $TOOL stats $FIX/people.csv score

expect "stats json, column by number" '{"column": "score", "count": 5, "sum": 1356.5, "mean": 271.3, "min": -3, "max": 1100, "median": 88.5, "stddev": 464.899935, "skipped": 1}' \
	$TOOL stats $FIX/people.csv 4 --json

expect "stats column name is case-insensitive" "count: 3" \
	sh -c "$TOOL stats $FIX/crlf.csv QTY | grep count"

expect "stats even count median and CRLF input" "median: 3" \
	sh -c "$TOOL stats $FIX/crlf.csv qty | grep median"

expect "stats semicolon file, BOM, \$ and (negative)" "column: price
count: 2
sum: -3.3
mean: -1.65
min: -4.5
max: 1.2
median: -1.65
stddev: 4.030509
skipped: 1" $TOOL stats $FIX/semi.csv price -d ";"

expect "stats from standard input" "sum: 15" \
	sh -c "$TOOL stats - qty < $FIX/crlf.csv | grep sum"

printf 'v\n0.1\n0.2\n1e3\n' >"$WORK/float.csv"
expect "stats float formatting and exponent" "sum: 1000.3" \
	sh -c "$TOOL stats $WORK/float.csv v | grep sum"

# ---------------------------------------------------------------- filter
expect "filter eq on a quoted field with a comma" 'id,name,city,score,joined
1,Alice,"Portland, OR",88.5,2021-04-01' \
	$TOOL filter $FIX/people.csv city eq "Portland, OR"

expect "filter contains keeps multi-line records intact" 'id,name,city,score,joined
4,Dan,"Multi-line
Town, XY",-3,2019-07-07' \
	$TOOL filter $FIX/people.csv city contains "Town, XY"

expect "filter numeric gt skips non-numbers, reads 1,100" 'id,name,city,score,joined
2,"Bob ""Bobby"" Jones",Seattle,92,2020-11-15
6,Frank,seattle,"1,100",2018-05-05' \
	$TOOL filter $FIX/people.csv score gt 90

expect "filter numeric eq (88.50 = 88.5)" 'id,name,city,score,joined
1,Alice,"Portland, OR",88.5,2021-04-01' \
	$TOOL filter $FIX/people.csv score eq 88.50

expect "filter negative value is not an option" 'id,name,city,score,joined
4,Dan,"Multi-line
Town, XY",-3,2019-07-07' \
	$TOOL filter $FIX/people.csv score lt -1

expect "filter ISO dates compare as strings" 'id,name,city,score,joined
3,Carol,"Portland, ME",79,2022-01-20
5,Eve,Boise,n/a,2023-02-28' \
	$TOOL filter $FIX/people.csv joined ge 2022-01-01

expect "filter ignore case and symbol operator" 'id,name,city,score,joined
2,"Bob ""Bobby"" Jones",Seattle,92,2020-11-15
6,Frank,seattle,"1,100",2018-05-05' \
	$TOOL filter $FIX/people.csv city = SEATTLE -i

expect "filter ne with limit" 'id,name,city,score,joined
2,"Bob ""Bobby"" Jones",Seattle,92,2020-11-15' \
	$TOOL filter $FIX/people.csv name ne Alice -n 1

expect "filter notcontains" 'id,name,city,score,joined
2,"Bob ""Bobby"" Jones",Seattle,92,2020-11-15
4,Dan,"Multi-line
Town, XY",-3,2019-07-07
5,Eve,Boise,n/a,2023-02-28
6,Frank,seattle,"1,100",2018-05-05' \
	$TOOL filter $FIX/people.csv city notcontains Portland

(cd "$WORK" && "$OLDPWD/$TOOL" filter "$OLDPWD/$FIX/people.csv" city contains Portland -o portland.csv >stdout.txt)
if [ "$(cat "$WORK/stdout.txt")" = "wrote portland.csv: 2 rows" ] &&
	[ "$(sed -n '$p' "$WORK/portland.csv")" = '3,Carol,"Portland, ME",79,2022-01-20' ]; then ok; else
	ko "filter -o writes the file relative to the current directory"
fi

# ---------------------------------------------------------------- sort
expect "sort numeric descending, non-numbers last" 'id,name,city,score,joined
6,Frank,seattle,"1,100",2018-05-05
2,"Bob ""Bobby"" Jones",Seattle,92,2020-11-15
1,Alice,"Portland, OR",88.5,2021-04-01
3,Carol,"Portland, ME",79,2022-01-20
4,Dan,"Multi-line
Town, XY",-3,2019-07-07
5,Eve,Boise,n/a,2023-02-28' \
	$TOOL sort $FIX/people.csv score --desc --numeric

expect "sort numeric ascending with limit" 'name,qty
bolt,2
widget,3' $TOOL sort $FIX/crlf.csv qty --numeric -n 2

expect "sort as strings (byte order)" 'name,qty
gadget,10
bolt,2
widget,3' $TOOL sort $FIX/crlf.csv qty

expect "sort is stable for equal keys (ignore case)" '2,"Bob ""Bobby"" Jones",Seattle,92,2020-11-15
6,Frank,seattle,"1,100",2018-05-05' \
	sh -c "$TOOL sort $FIX/people.csv city -i | grep -i seattle"

expect "sort by column number, tab delimiter" "$(printf 'a\tb\n1\tz\n2\ty')" \
	sh -c "printf 'a\tb\n2\ty\n1\tz\n' | $TOOL sort - 2 --desc -d tab"

# ---------------------------------------------------------------- select
expect "select reorders and re-quotes fields" 'city,name
"Portland, OR",Alice
Seattle,"Bob ""Bobby"" Jones"
"Portland, ME",Carol
"Multi-line
Town, XY",Dan
Boise,Eve
seattle,Frank' $TOOL select $FIX/people.csv city,name

expect "select by number, repeated column, semicolons" 'note;item;item
"blue; fine";pen;pen
refund;book;book
eu;lamp;lamp' $TOOL select $FIX/semi.csv 3,item,ITEM -d ";"

# ---------------------------------------------------------------- help
for c in stats filter sort select; do
	out=$($TOOL $c --help)
	case $out in
	"Usage: csvtool $c FILE"*) ok ;;
	*) ko "$c --help shows a usage line" ;;
	esac
done
case $($TOOL --help) in
*"Commands:"*stats*filter*sort*select*) ok ;;
*) ko "--help lists the commands" ;;
esac

# ---------------------------------------------------------------- errors
expect_fail "unknown column" 1 "column 'price' not found (columns: id, name, city, score, joined)" \
	$TOOL stats $FIX/people.csv price
expect_fail "column without numbers" 1 "has no numeric values" $TOOL stats $FIX/people.csv name
expect_fail "missing file" 1 "cannot read 'nope.csv'" $TOOL sort nope.csv a
expect_fail "empty file" 1 "no header row" $TOOL stats /dev/null a
expect_fail "bad operator" 2 "unknown operator 'like'" $TOOL filter $FIX/people.csv name like A
expect_fail "too few arguments" 2 "needs 4 arguments" $TOOL filter $FIX/people.csv name eq
expect_fail "unknown option" 2 "unknown option: --desc" $TOOL stats $FIX/people.csv score --desc
expect_fail "unknown command" 2 "unknown command 'avg'" $TOOL avg $FIX/people.csv
expect_fail "bad limit" 2 "--limit needs" $TOOL sort $FIX/people.csv id -n many

printf '%d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
