{{/* Names and labels. */}}
{{- define "toolhost.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "toolhost.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "toolhost.selectorLabels" -}}
app.kubernetes.io/name: {{ include "toolhost.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "toolhost.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "toolhost.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "toolhost.secretName" -}}
{{- default (include "toolhost.fullname" .) .Values.auth.existingSecret -}}
{{- end -}}

{{- define "toolhost.redisName" -}}
{{- printf "%s-redis" (include "toolhost.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The Redis URL the replicas get as TOOLHOST_REDIS_URL: the bundled Redis, else redis.url, else none. */}}
{{- define "toolhost.redisUrl" -}}
{{- if .Values.redis.enabled -}}
{{- printf "redis://%s:6379/0" (include "toolhost.redisName" .) -}}
{{- else -}}
{{- .Values.redis.url -}}
{{- end -}}
{{- end -}}

{{/* A token: the value given, else the one already in the release's Secret, else a new random one. */}}
{{- define "toolhost.token" -}}
{{- $given := index . 0 -}}
{{- $key := index . 1 -}}
{{- $root := index . 2 -}}
{{- if $given -}}
{{- $given -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" $root.Release.Namespace (include "toolhost.fullname" $root) -}}
{{- if and $existing (index $existing.data $key) -}}
{{- index $existing.data $key | b64dec -}}
{{- else -}}
{{- randAlphaNum 48 -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The config file: the chart's fixed keys over .Values.config. */}}
{{- define "toolhost.config" -}}
{{- $config := deepCopy .Values.config -}}
{{- $limits := default dict (get $config "limits") -}}
{{- $_ := set $limits "drain_timeout_ms" (int .Values.drainTimeoutMs) -}}
{{- $_ := set $config "limits" $limits -}}
{{- $_ := set $config "host" "0.0.0.0" -}}
{{- $_ := set $config "port" (int .Values.service.port) -}}
{{- $_ := set $config "workspace" "/var/lib/toolhost/workspace" -}}
{{- $_ := set $config "extensions" "/var/lib/toolhost/extensions" -}}
{{- $_ := set $config "cache_dir" "/var/cache/toolhost" -}}
{{- if or .Values.secrets .Values.existingSecretsFile -}}
{{- $_ := set $config "secrets_file" "/etc/toolhost/secrets/secrets.json" -}}
{{- end -}}
{{- if not .Values.shell.enabled -}}
{{- $exclude := concat (default list (get $config "exclude")) (list "shell" "process") | uniq -}}
{{- $_ := set $config "exclude" $exclude -}}
{{- end -}}
{{- toPrettyJson $config -}}
{{- end -}}
