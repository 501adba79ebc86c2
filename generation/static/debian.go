package static

import "strings"

// debianExceptions maps Python import names whose Debian package is not
// python3-<name>.
var debianExceptions = map[string]string{
	"yaml": "python3-yaml", "PIL": "python3-pil", "cv2": "python3-opencv", "sklearn": "python3-sklearn",
	"bs4": "python3-bs4", "dateutil": "python3-dateutil", "Crypto": "python3-pycryptodome",
	"Cryptodome": "python3-pycryptodome", "OpenSSL": "python3-openssl", "jwt": "python3-jwt",
	"magic": "python3-magic", "serial": "python3-serial", "usb": "python3-usb", "gi": "python3-gi",
	"skimage": "python3-skimage", "attr": "python3-attr", "google": "python3-protobuf",
	"zmq": "python3-zmq", "MySQLdb": "python3-mysqldb", "psycopg2": "python3-psycopg2",
	"ruamel": "python3-ruamel.yaml", "docx": "python3-docx", "pptx": "python3-pptx",
	"Levenshtein": "python3-levenshtein", "rdkit": "python3-rdkit", "Bio": "python3-biopython",
	"wx": "python3-wxgtk4.0", "tkinter": "python3-tk", "lxml": "python3-lxml", "git": "python3-git",
	"dns": "python3-dnspython", "nacl": "python3-nacl", "markdown": "python3-markdown",
	"mpl_toolkits": "python3-matplotlib", "pkg_resources": "python3-pkg-resources",
	"setuptools": "python3-setuptools", "typing_extensions": "python3-typing-extensions",
	"fitz": "python3-fitz", "flit_core": "flit", "poetry": "python3-poetry-core", "pdm": "python3-pdm-backend", "telegram": "python3-python-telegram-bot", "slugify": "python3-slugify",
}

// debianPackage returns the Debian package that usually provides the
// Python module imported as name: a known exception or python3-<name>;
// none for a private module ("_black_version"), which no package provides.
func debianPackage(name string) string {
	if p, ok := debianExceptions[name]; ok {
		return p
	}
	if strings.HasPrefix(name, "_") {
		return ""
	}
	return "python3-" + strings.ReplaceAll(strings.ToLower(name), "_", "-")
}
