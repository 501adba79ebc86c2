#!/bin/sh
# Test suite for textstats. Usage: ./test.sh   (AWK=gawk ./test.sh to pick an awk)
# Prints every failure and "N passed, M failed"; exits non-zero on failure.

cd "$(dirname "$0")" || exit 1
TOOL=./textstats
FIX=tests
WORK=${TMPDIR:-/tmp}/textstats-test.$$
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

# syllables WORD... : run the syllable heuristic on single words
syl() {
	for w in "$@"; do
		printf '%s\n' "$w" >"$WORK/word.txt"
		$TOOL readability "$WORK/word.txt" | sed -n 's/^syllables: //p'
	done | awk '{ printf "%s ", $0 }'
}

# ---------------------------------------------------------------- top
expect "top drops stop words, ties alphabetical" "cat 4
hat 4
dog 3
happy 2
mat 2" $TOOL top $FIX/sample.txt -n 5

expect "top default prints 10 words" "10" sh -c "$TOOL top $FIX/sample.txt | awk 'END { print NR }'"

expect "top --keep-stopwords" "the 12
cat 4
hat 4
was 4" $TOOL top $FIX/sample.txt --keep-stopwords -n 4

expect "top --stopwords FILE" "dog 3
happy 2
mat 2" $TOOL top $FIX/sample.txt --stopwords $FIX/stop.txt -n 3

expect "top --min-length" "happy 2
agreed 1
brown 1" $TOOL top $FIX/sample.txt --min-length 5 -n 3

expect "top -n 0 prints all words" "19" sh -c "$TOOL top $FIX/sample.txt -n 0 | awk 'END { print NR }'"

expect "top keeps UTF-8 words, curly apostrophes are stop words" "café 2
naïve 1
stop 1" $TOOL top $FIX/utf8.txt

expect "top reads standard input" "possessive 2" \
	sh -c "printf \"Possessive's possessive, it's fine: 42 42 42\n\" | $TOOL top - -n 1"

# ---------------------------------------------------------------- count
expect "count with abbreviations, initials, decimals, times" "lines: 7
paragraphs: 3
sentences: 8
words: 67
characters: 292
characters_no_spaces: 230
words_per_sentence: 8.38" $TOOL count $FIX/sample.txt

expect "count UTF-8 characters (not bytes)" '{"lines": 1, "paragraphs": 1, "sentences": 1, "words": 5, "characters": 30, "characters_no_spaces": 25, "words_per_sentence": 5.00}' \
	$TOOL count $FIX/utf8.txt --json

expect "count text without punctuation is one sentence" "sentences: 1" \
	sh -c "$TOOL count $FIX/nopunct.txt | grep sentences"

expect "count blank lines end a sentence (headings, list items)" "sentences: 3" \
	sh -c "printf 'Title\n\nItem one\n\nItem two\n' | $TOOL count - | grep sentences"

expect "count quotes and brackets after the full stop" "sentences: 3" \
	sh -c "printf '\"Go home.\" She went (slowly.) Then she slept.\n' | $TOOL count - | grep sentences"

expect "count ellipsis before lowercase does not end" "sentences: 1" \
	sh -c "printf 'Wait... what is that?\n' | $TOOL count - | grep sentences"

expect "count U.S. ends before a capital, not before lowercase" "sentences: 2" \
	sh -c "printf 'The U.S. economy grew in the U.S. Then it fell.\n' | $TOOL count - | grep sentences"

expect "count CRLF line endings" "characters: 5" \
	sh -c "printf 'ab\r\ncd.\r\n' | $TOOL count - | grep '^characters:'"

# ---------------------------------------------------------------- readability
expect "readability scores" "words: 64
sentences: 8
syllables: 70
words_per_sentence: 8.00
syllables_per_word: 1.09
flesch_reading_ease: 106.2
flesch_kincaid_grade: 0.4
level: very easy" $TOOL readability $FIX/sample.txt

printf 'The organisation shall implement appropriate administrative measures.\n' >"$WORK/hard.txt"
expect "readability of a dense sentence (json)" '{"words": 7, "sentences": 1, "syllables": 21, "words_per_sentence": 7.00, "syllables_per_word": 3.00, "flesch_reading_ease": -54.1, "flesch_kincaid_grade": 22.5, "level": "very difficult"}' \
	$TOOL readability "$WORK/hard.txt" --json

expect "syllables: silent e, -le, -es, -ed" "1 2 1 2 1 2 1 2 " \
	syl cake table makes boxes jumped wanted loved little
expect "syllables: -tion, -cial, io/ia/iu, -ing after a vowel" "2 2 3 3 3 2 2 3 " \
	syl nation special radio medium various being playing actual
expect "syllables: longer words" "4 5 3 4 3 5 " \
	syl information university beautiful education important readability
expect "syllables: contractions, y, hyphens" "2 2 1 2 2 " \
	syl "couldn't" "didn't" year yellow "well-known"

# ---------------------------------------------------------------- help
for c in top count readability; do
	case $($TOOL $c --help) in
	"Usage: textstats $c FILE"*) ok ;;
	*) ko "$c --help shows a usage line" ;;
	esac
done
case $($TOOL --help) in
*"Commands:"*top*count*readability*) ok ;;
*) ko "--help lists the commands" ;;
esac

# ---------------------------------------------------------------- errors
expect_fail "missing file" 1 "cannot read 'nope.txt'" $TOOL top nope.txt
expect_fail "empty text" 1 "no words to score" $TOOL readability /dev/null
expect_fail "bad -n" 2 "-n needs a whole number" $TOOL top $FIX/sample.txt -n lots
expect_fail "no file" 2 "needs exactly one FILE" $TOOL count
expect_fail "unknown option" 2 "unknown option: --json" $TOOL top $FIX/sample.txt --json
expect_fail "unknown command" 2 "unknown command 'words'" $TOOL words $FIX/sample.txt

printf '%d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
