#!/bin/sh
# Deploy the web app to production.
set -eu

REMOTE=deploy@web01.example.net
export STRIPE_API_KEY="sk_live_xtf1HEN3exgFPQjaDPjinWIx"
DB_PASSWORD='correct horse battery staple'
GH_TOKEN=ghp_QmGrahUS7dPP5uxKaQz16tfCgRCx5OFUfC3s

echo "building..."
go build -o app ./cmd/app
rsync -az --delete ./app "$REMOTE:/srv/app/"

# deploy key used by the CI runner
cat > /tmp/deploy_key <<'KEY'
-----BEGIN OPENSSH PRIVATE KEY-----
gobuCHQ8T4xzA0ATbtTq1ScmmrZVkl5kC7nz+lIeIocNF89DKtwfj/3CcrL32jyk2rckfs
6rkTt1N4DitaXs+z8kGd6tvVJP6HR70KreZxlGnZMYCD4VzpKdQ3dVdG7RilaL6+EN4eH/
dntt1M3pttwYwPhJz3Nj/EDmO2zsmEgg9iNtVilqNtYA8JMY9af60SyARubf/m486wXHab
y8K/H34ELcdJeGc5j7CFYihaqIv11UkT5n8GrKoz//f53HkrZVoSCP8IOC9QCoWG/KtxU4
oBrqud+TGxmZOVGfvhW7h0ThKlZlwqY7JfJufNQNytactjkaaUZdFKYTw2K1ndqZBuRP/S
Vi4w1z1TLM2a5zsmr9kai3Yh==
-----END OPENSSH PRIVATE KEY-----
KEY
chmod 600 /tmp/deploy_key

curl -fsS -H "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjaS1kZXBsb3llciIsInNjb3BlIjoiZGVwbG95IiwiZXhwIjoxNzY3MjI1NjAwfQ.rw5KDFGqDC629h5kwkQxudPwbuAjyJZHGpbVeG24OBv" \
  -d '{"ref": "main"}' https://api.example.net/v1/deployments
mysql --user=admin --password=S3cure!Pass2024 -e 'FLUSH TABLES' orders
echo "done"
