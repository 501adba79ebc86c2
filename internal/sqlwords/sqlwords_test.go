package sqlwords

import (
	"slices"
	"strings"
	"testing"
)

// TestQuery: the query each sentence asks of a table with the columns
// customer, amount, qty and unit_cost, or none.
func TestQuery(t *testing.T) {
	t.Parallel()
	cols := []string{"customer", "amount", "qty", "unit_cost", "order date"}
	for _, c := range []struct{ text, want string }{
		{"Add up the amount of every customer, biggest first.", "select customer, sum(amount) as amount from t group by customer order by amount desc"},
		{"What is the average amount per customer? Smallest first.", "select customer, avg(amount) as average_amount from t group by customer order by average_amount asc"},
		{"Total cost (qty times unit cost) by customer, in descending order.", "select customer, sum(qty * unit_cost) as cost from t group by customer order by cost desc"},
		{"How many orders has each customer placed?", "select customer, count(*) as count from t group by customer"},
		{"The number of orders per order date.", `select "order date", count(*) as count from t group by "order date"`},
		{"What is the maximum qty?", "select max(qty) as qty from t"},
		{"Show the orders of each customer.", ""}, // no aggregate
		{"Total the weight of each parcel.", ""},  // no such columns
		{"Load this into a table with proper number columns.", ""},
	} {
		if got, _ := Query(c.text, "t", cols); got != c.want {
			t.Errorf("Query(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestColumns reads the columns of a CSV, a TSV, a JSON array of records
// and JSON lines, and none of text that holds no table.
func TestColumns(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, data string
		want       []string
	}{
		{"a.csv", "shop, amount\nx,1\n", []string{"shop", "amount"}},
		{"a.tsv", "shop\tamount\n", []string{"shop", "amount"}},
		{"a.json", `[{"shop": "x", "amount": {"n": 1}}, {"shop": "y"}]`, []string{"shop", "amount"}},
		{"input.txt", "{\"shop\": \"x\", \"amount\": 1}\n{\"shop\": \"y\", \"amount\": 2}\n", []string{"shop", "amount"}},
		{"notes.txt", "just words here\n", nil},
		{"a.json", `[1, 2]`, nil},
	} {
		if got := Columns(strings.NewReader(c.data), c.name); !slices.Equal(got, c.want) {
			t.Errorf("Columns(%s) = %q, want %q", c.name, got, c.want)
		}
	}
}
