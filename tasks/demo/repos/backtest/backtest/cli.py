"""Command-line interface of backtest.

Run ``backtest --help`` (or ``python3 -m backtest --help``) for usage.
"""

import argparse
import csv
import json
import os
import sys

from . import __version__
from .data import DataError, load_prices
from .metrics import summary
from .strategies import buy_and_hold, sma_crossover

PROG = "backtest"


class CLIError(Exception):
    """An error reported as one line on stderr with exit status 1."""


def _num(x):
    """Compact text for a price: up to 6 decimals, no trailing zeros."""
    s = "%.6f" % x
    s = s.rstrip("0").rstrip(".")
    return s if s not in ("", "-0") else "0"


def _load(args):
    try:
        series = load_prices(args.file, column=args.column, date_column=args.date_column)
    except DataError as exc:
        raise CLIError(str(exc))
    if series.skipped:
        print("%s: note: skipped %d row(s) without a price" % (PROG, series.skipped), file=sys.stderr)
    return series


def _write_equity(path, series, result):
    try:
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["date", "close", "position", "equity"])
            for d, p, pos, eq in zip(series.dates, series.prices, result.positions, result.equity):
                w.writerow([d, _num(p), pos, "%.2f" % eq])
    except OSError as exc:
        raise CLIError("cannot write %s: %s" % (path, exc.strerror or exc))


def _report(args, series, result, cash):
    bh = series.prices[-1] / series.prices[0] - 1.0
    open_trades = sum(1 for t in result.trades if t.open)
    wins = sum(1 for t in result.trades if t.return_pct > 0)
    if args.json:
        out = {
            "strategy": result.name,
            "start": series.dates[0],
            "end": series.dates[-1],
            "days": len(series.prices),
            "price_column": series.column,
            "trades": len(result.trades),
            "open_trades": open_trades,
            "winning_trades": wins,
            "total_return_pct": round(100 * result.total_return, 4),
            "initial_cash": round(cash, 2),
            "final_equity": round(result.final_equity, 2),
            "max_drawdown_pct": round(100 * result.max_drawdown, 4),
            "exposure_pct": round(100 * result.exposure, 2),
            "buy_hold_return_pct": round(100 * bh, 4),
            "trade_list": [
                {
                    "entry_date": series.dates[t.entry_index],
                    "entry_price": t.entry_price,
                    "exit_date": series.dates[t.exit_index],
                    "exit_price": t.exit_price,
                    "return_pct": round(t.return_pct, 4),
                    "open": t.open,
                }
                for t in result.trades
            ],
        }
        if args.output:
            out["output"] = args.output
        print(json.dumps(out, indent=2))
        return
    print("strategy: %s" % result.name)
    print("period: %s to %s (%d days, column %s)" % (
        series.dates[0], series.dates[-1], len(series.prices), series.column))
    extra = " (%d open)" % open_trades if open_trades else ""
    print("trades: %d%s" % (len(result.trades), extra))
    if result.trades:
        print("winning trades: %d of %d" % (wins, len(result.trades)))
    print("total return: %.2f %%" % (100 * result.total_return))
    print("initial cash: %.2f" % cash)
    print("final equity: %.2f" % result.final_equity)
    print("max drawdown: %.2f %%" % (100 * result.max_drawdown))
    print("exposure: %.1f %% of days" % (100 * result.exposure))
    if "buy and hold" not in result.name:
        print("buy & hold return: %.2f %%" % (100 * bh))
    if getattr(args, "trades", False) and result.trades:
        print()
        print("entry_date,entry_price,exit_date,exit_price,return_pct")
        for t in result.trades:
            print("%s,%s,%s,%s,%.2f%s" % (
                series.dates[t.entry_index], _num(t.entry_price),
                series.dates[t.exit_index], _num(t.exit_price), t.return_pct,
                " (open)" if t.open else ""))
    if args.output:
        print("wrote %s (%d rows)" % (args.output, len(series.prices)))


def cmd_sma(args):
    series = _load(args)
    try:
        result = sma_crossover(series.prices, args.fast, args.slow, cash=args.cash, fee=args.fee / 100.0)
    except ValueError as exc:
        raise CLIError(str(exc))
    if args.output:
        _write_equity(args.output, series, result)
    _report(args, series, result, args.cash)
    return 0


def cmd_buyhold(args):
    series = _load(args)
    result = buy_and_hold(series.prices, cash=args.cash, fee=args.fee / 100.0)
    if args.output:
        _write_equity(args.output, series, result)
    _report(args, series, result, args.cash)
    return 0


def cmd_stats(args):
    series = _load(args)
    s = summary(series.prices, risk_free=args.risk_free / 100.0)
    peak, trough = series.dates[s["drawdown_peak"]], series.dates[s["drawdown_trough"]]
    if args.json:
        print(json.dumps({
            "start": series.dates[0],
            "end": series.dates[-1],
            "days": len(series.prices),
            "price_column": series.column,
            "first": series.prices[0],
            "last": series.prices[-1],
            "total_return_pct": round(100 * s["total_return"], 4),
            "annualised_return_pct": round(100 * s["annualised_return"], 4),
            "annualised_volatility_pct": round(100 * s["volatility"], 4),
            "max_drawdown_pct": round(100 * s["max_drawdown"], 4),
            "drawdown_peak": peak,
            "drawdown_trough": trough,
            "sharpe_ratio": round(s["sharpe"], 4),
        }, indent=2))
        return 0
    print("period: %s to %s (%d days, column %s)" % (
        series.dates[0], series.dates[-1], len(series.prices), series.column))
    print("first: %s" % _num(series.prices[0]))
    print("last: %s" % _num(series.prices[-1]))
    print("total return: %.2f %%" % (100 * s["total_return"]))
    print("annualised return: %.2f %%" % (100 * s["annualised_return"]))
    print("annualised volatility: %.2f %%" % (100 * s["volatility"]))
    if s["max_drawdown"] > 0:
        print("max drawdown: %.2f %% (peak %s, trough %s)" % (100 * s["max_drawdown"], peak, trough))
    else:
        print("max drawdown: 0.00 %")
    print("sharpe ratio: %.2f" % s["sharpe"])
    return 0


def _add_input(p):
    p.add_argument("file", metavar="PRICES.csv",
                   help="CSV with a date column and a close/price column (header row required)")
    p.add_argument("--column", metavar="NAME",
                   help="price column (name, any case, or 1-based number); default: close, adj close, price, ...")
    p.add_argument("--date-column", metavar="NAME", help="date column (default: date, time, timestamp, ... or the first column)")


def _add_money(p, output=True):
    p.add_argument("--cash", type=float, default=10000.0, metavar="AMOUNT", help="starting cash (default 10000)")
    p.add_argument("--fee", type=float, default=0.0, metavar="PCT",
                   help="fee in percent of equity per buy or sell (default 0)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the daily equity curve as CSV (date,close,position,equity) to FILE")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")


def build_parser():
    """Build the argparse parser with all subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=fmt,
        description=(
            "Backtest simple trading strategies and compute risk/return statistics\n"
            "from a CSV of daily prices (date + close columns)."
        ),
        epilog=(
            "examples:\n"
            "  backtest stats prices.csv\n"
            "  backtest sma prices.csv --fast 10 --slow 30 -o equity.csv\n"
            "  backtest buyhold prices.csv --cash 5000\n\n"
            "conventions: simple daily returns, 252 trading days per year, drawdown\n"
            "from the running high, trades at the close on the signal day."
        ),
    )
    p.add_argument("--version", action="version", version="%(prog)s " + __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser(
        "sma",
        formatter_class=fmt,
        help="backtest a moving-average crossover strategy",
        description=(
            "Simple moving-average crossover backtest: long (all equity) while the\n"
            "fast SMA is above the slow SMA, flat otherwise. Signals use the day's\n"
            "close and are traded at that close. Prints trades, total return %,\n"
            "final equity, max drawdown % and exposure; -o saves the equity curve."
        ),
        epilog="examples:\n  backtest sma prices.csv --fast 5 --slow 20\n"
        "  backtest sma prices.csv --fast 10 --slow 50 --cash 25000 --fee 0.1 -o equity.csv --trades",
    )
    _add_input(s)
    s.add_argument("--fast", type=int, required=True, metavar="N", help="fast SMA window in days")
    s.add_argument("--slow", type=int, required=True, metavar="M", help="slow SMA window in days (> N)")
    _add_money(s)
    s.add_argument("--trades", action="store_true", help="also list every trade (entry, exit, return)")
    s.set_defaults(func=cmd_sma)

    s = sub.add_parser(
        "buyhold",
        formatter_class=fmt,
        help="backtest buying at the first close and holding",
        description=(
            "Buy-and-hold benchmark: invest all cash at the first close and hold\n"
            "to the last. Prints total return %, final equity and max drawdown %."
        ),
        epilog="examples:\n  backtest buyhold prices.csv\n  backtest buyhold prices.csv --cash 5000 -o equity.csv",
    )
    _add_input(s)
    _add_money(s)
    s.set_defaults(func=cmd_buyhold)

    s = sub.add_parser(
        "stats",
        formatter_class=fmt,
        help="return, volatility, drawdown and Sharpe ratio of a price series",
        description=(
            "Statistics of a price (or equity) series: total return %, annualised\n"
            "return %, annualised volatility % (stdev of daily returns x sqrt(252)),\n"
            "max drawdown % with peak and trough dates, and the Sharpe ratio\n"
            "(mean daily excess return / stdev x sqrt(252))."
        ),
        epilog="examples:\n  backtest stats prices.csv\n  backtest stats equity.csv --column equity --json\n"
        "  backtest stats prices.csv --risk-free 2",
    )
    _add_input(s)
    s.add_argument("--risk-free", type=float, default=0.0, metavar="PCT",
                   help="annual risk-free rate in percent for the Sharpe ratio (default 0)")
    s.add_argument("--json", action="store_true", help="print JSON instead of text")
    s.set_defaults(func=cmd_stats)
    return p


def main(argv=None):
    """Entry point of the ``backtest`` command. Returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "cash", 1) <= 0:
        parser.error("--cash must be positive")
    if not 0 <= getattr(args, "fee", 0) < 100:
        parser.error("--fee must be between 0 and 100")
    try:
        return args.func(args)
    except CLIError as exc:
        print("%s: error: %s" % (PROG, exc), file=sys.stderr)
        return 1
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # last resort: one line, never a traceback
        print("%s: error: %s: %s" % (PROG, type(exc).__name__, exc), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
